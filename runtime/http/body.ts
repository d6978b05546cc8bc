import { ServiceError } from '../sdk/errors'
import { nonFinitePath } from '../sdk/finite'

const tooLarge = (limit: number) =>
  new ServiceError(413, 'PAYLOAD_TOO_LARGE', `The body is larger than the limit of ${limit} bytes.`, {
    extra: { limit_bytes: limit },
  })

/**
 * A failed body read is the client's doing, never an internal error: a stream cut for passing Bun's
 * maxRequestBodySize is a 413 (that cap is set out of the way, runtime/http/serve-options.ts, so this is a
 * fallback); anything else is a body that broke off (400).
 */
function readFailed(e: unknown, limit: number): ServiceError {
  if (e instanceof ServiceError) return e
  if (/maxRequestBodySize/i.test(String((e as Error)?.message ?? e))) return tooLarge(limit)
  return new ServiceError(400, 'BODY_READ_FAILED', 'The body could not be read (the connection broke off mid-body).')
}

/** 413 when the announced Content-Length is over `limit` (without reading anything). */
export function refuseDeclaredOversize(req: Request, limit: number): void {
  if (Number(req.headers.get('content-length') ?? 0) > limit) throw tooLarge(limit)
}

interface Deadline {
  at: number
  expire(): void
}
/**
 * Body reads waiting, checked by one shared sweep (a timer per request costs more than the read of a small body), four
 * times a second: a deadline (BODY_TIMEOUT_MS: 15 s by default, 100 ms at least) is answered within 250 ms of it. The
 * sweep runs while reads wait, i.e. all the time under steady traffic (every read is pending for a turn), and each of
 * its ticks can wake the main thread (~50-120 µs of CPU on a VM): every 25 ms, as before, that was ~0.1 wake-up per
 * voucher-paid call at 300 calls/s.
 */
const waiting = new Set<Deadline>()
const SWEEP_MS = 250
let sweeper: ReturnType<typeof setInterval> | undefined

function sweep() {
  const now = performance.now()
  for (const d of waiting) if (d.at <= now) d.expire()
  if (!waiting.size) {
    clearInterval(sweeper)
    sweeper = undefined
  }
}

/** Resolves `work` or rejects with 408 after `ms` (to within SWEEP_MS); `onTimeout` cleans up (e.g. cancels the stream). */
function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const d: Deadline = {
      at: performance.now() + ms,
      expire() {
        waiting.delete(d)
        onTimeout()
        reject(new ServiceError(408, 'REQUEST_TIMEOUT', `The body did not arrive within ${ms} ms.`))
      },
    }
    waiting.add(d)
    if (!sweeper) {
      sweeper = setInterval(sweep, SWEEP_MS)
      sweeper.unref?.()
    }
    work.then(
      (v) => {
        waiting.delete(d)
        resolve(v)
      },
      (e) => {
        if (!waiting.delete(d)) return // already answered 408
        onTimeout()
        reject(e)
      },
    )
  })
}

/**
 * Reads a request body as text, refusing (413) anything over `limit` bytes, whether announced by
 * Content-Length or discovered while streaming, and (408) a body that does not arrive within `deadlineMs`.
 * Never buffers more than `limit` bytes of a streamed body.
 */
export async function readBody(req: Request, limit: number, deadlineMs = 15_000): Promise<string> {
  refuseDeclaredOversize(req, limit)
  const declared = req.headers.get('content-length')
  if (declared === '0') return ''
  // Announced length and no chunking: one native read (`req.body` is not touched: it builds a stream).
  if (declared !== null && !req.headers.has('transfer-encoding')) {
    const text = await withDeadline(
      req.text().catch((e) => {
        throw readFailed(e, limit)
      }),
      deadlineMs,
      () => {},
    )
    if (Buffer.byteLength(text) > limit) throw tooLarge(limit)
    return text
  }
  if (!req.body) return ''
  const reader = req.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  const drain = async (): Promise<string> => {
    for (;;) {
      const { done, value } = await reader.read().catch((e) => {
        throw readFailed(e, limit)
      })
      if (done) return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks))
      size += value.byteLength
      if (size > limit) throw tooLarge(limit)
      chunks.push(value)
    }
  }
  return withDeadline(drain(), deadlineMs, () => void reader.cancel().catch(() => {}))
}

/** Deepest nesting of arrays/objects accepted in a body: deeper documents are refused before parsing. */
export const MAX_JSON_DEPTH = 128

/** True when `text`'s arrays/objects nest deeper than `max` (brackets inside strings do not count). Linear, no recursion. */
export function nestsDeeperThan(text: string, max: number): boolean {
  if (!hasMoreOpenersThan(text, max)) return false // most bodies: a few native searches, no char-by-char walk
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

/** True when `text` holds more than `max` `[` and `{` in all (strings included): nesting deeper than `max` needs that many. */
function hasMoreOpenersThan(text: string, max: number): boolean {
  let n = 0
  for (const ch of ['[', '{']) {
    for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) if (++n > max) return true
  }
  return false
}

/**
 * Parses a JSON body; malformed JSON is a 400 that says where. Nesting deeper than MAX_JSON_DEPTH is a 422
 * (deep documents overflow the stack of later copies and walks).
 */
export function parseJson(text: string): unknown {
  if (text.trim() === '')
    throw new ServiceError(422, 'INVALID_INPUT', 'The body is empty; send a JSON object.', {
      details: [{ path: '/', message: 'required' }],
    })
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new ServiceError(
      422,
      'INVALID_INPUT',
      `The body nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep.`,
      { details: [{ path: '/', message: `nesting deeper than ${MAX_JSON_DEPTH}` }] },
    )
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw new ServiceError(400, 'INVALID_JSON', `The body is not valid JSON: ${(e as Error).message}`)
  }
  // 1e400 parses to Infinity: refuse numbers a double cannot hold instead of computing with them.
  if (/\d[eE][+-]?\d{3}/.test(text)) assertFiniteInput(value)
  return value
}

/** 415 unless the Content-Type is JSON (application/json or any +json type). */
export function requireJson(req: Request): void {
  const sent = req.headers.get('content-type')
  if (sent === 'application/json') return // what nearly every client sends: no parsing
  const type = (sent ?? '').split(';')[0].trim().toLowerCase()
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new ServiceError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `Send the body as application/json (got ${type || 'no Content-Type'}).`,
    )
  }
}

function assertFiniteInput(v: unknown): void {
  const path = nonFinitePath(v)
  if (path !== null)
    throw new ServiceError(422, 'INVALID_INPUT', `${path}: number out of range (beyond ±1.8e308)`, {
      details: [{ path, message: 'number out of range' }],
    })
}
