/**
 * One streamed call (docs/streaming.md), whatever pays for it: the handler runs with a sink for its text; the
 * answer starts with the first chunk (an error before it is a normal HTTP error), every chunk is an `event: delta`,
 * and the call ends with one `event: result` (after `finish`, e.g. settlement) or one `event: error`. A client that
 * goes away stops the handler and `fail` releases what was held; nothing is finished for it.
 * @module stream/call
 */
import { ClientGone } from '../http/disconnect'
import { errorBody, errorResponse } from '../http/respond'
import { eventStream } from '../http/sse'
import { ServiceError, type StreamSink } from '../sdk'

export type Finished =
  | { ok: true; data: unknown }
  /** `response`: the HTTP answer while nothing was streamed yet; `error`: the final event once it was. */
  | { ok: false; error: ServiceError; response: Response }

export interface StreamedCall {
  requestId: string
  /** The request's signal: aborted when the client disconnects. */
  signal: AbortSignal
  heartbeatMs: number
  /** Extra headers of the streamed answer. */
  headers?: Record<string, string>
  /** Runs the handler with `sink` for its text; `signal` aborts when the client leaves. */
  run(sink: StreamSink, signal: AbortSignal): Promise<unknown>
  /** The handler succeeded (its result is complete and valid): settle or count it; the final event's data. */
  finish(out: unknown): Promise<Finished>
  /** The handler failed, or the client left (`gone`): release what was held; the error to answer. */
  fail(e: unknown, gone: boolean): Promise<ServiceError>
  /** Runs once when the call is over (the stream ended, or the answer was not a stream). */
  onEnd?(): void
}

type Outcome = { ok: true; out: unknown } | { ok: false; e: unknown }

export async function streamedCall(c: StreamedCall): Promise<Response> {
  let streaming = false
  try {
    const res = await answer(c)
    streaming = res.streaming
    return res.response
  } finally {
    if (!streaming) c.onEnd?.()
  }
}

async function answer(c: StreamedCall): Promise<{ response: Response; streaming: boolean }> {
  const abort = new AbortController()
  // running -> (finishing | failed); a client leaving while running fails the call, later it changes nothing.
  let state: 'running' | 'finishing' | 'failed' = 'running'
  let writer: ReturnType<typeof eventStream> | undefined
  const early: Array<[string, unknown]> = []
  let firstChunk!: () => void
  const first = new Promise<'chunk'>((r) => {
    firstChunk = () => r('chunk')
  })
  const emit = (event: string, data: unknown) => {
    if (state !== 'running') return
    if (writer) writer.send(event, data)
    else {
      early.push([event, data])
      firstChunk()
    }
  }
  const sink: StreamSink = {
    delta: (text) => {
      if (typeof text === 'string' && text) emit('delta', { text })
    },
    restart: (reason) => emit('restart', { reason: String(reason) }),
  }
  let leave!: () => void
  const gone = new Promise<'gone'>((r) => {
    leave = () => r('gone')
  })
  c.signal.addEventListener('abort', leave, { once: true })
  const work: Promise<Outcome> = (async () => {
    if (c.signal.aborted) throw new ClientGone()
    return c.run(sink, abort.signal)
  })().then(
    (out) => ({ ok: true, out }),
    (e) => ({ ok: false, e }),
  )
  /** The client left while the handler ran: stop it, release, no finish. */
  const left = async (): Promise<ServiceError> => {
    state = 'failed'
    abort.abort()
    return c.fail(new ClientGone(), true)
  }
  const safeFinish = async (out: unknown): Promise<Finished> => {
    try {
      return await c.finish(out)
    } catch (e) {
      const error =
        e instanceof ServiceError ? e : new ServiceError(500, 'INTERNAL', 'The call could not be completed.')
      return { ok: false, error, response: errorResponse(error, c.requestId) }
    }
  }

  const firstOutcome = await Promise.race([work, first, gone])
  if (firstOutcome === 'gone') {
    c.signal.removeEventListener('abort', leave)
    return { response: errorResponse(await left(), c.requestId), streaming: false }
  }
  if (firstOutcome !== 'chunk') {
    // Over before any chunk: an error is a plain HTTP error; a result is a stream of one event.
    c.signal.removeEventListener('abort', leave)
    if (!firstOutcome.ok || c.signal.aborted) {
      state = 'failed'
      const isGone = c.signal.aborted || (!firstOutcome.ok && firstOutcome.e instanceof ClientGone)
      const err = await c.fail(firstOutcome.ok ? new ClientGone() : firstOutcome.e, isGone)
      return { response: errorResponse(err, c.requestId), streaming: false }
    }
    state = 'finishing'
    const f = await safeFinish(firstOutcome.out)
    if (!f.ok) return { response: f.response, streaming: false }
    const w = eventStream(c.requestId, () => {}, c.heartbeatMs, c.headers)
    w.send('result', f.data)
    w.close()
    return { response: w.response, streaming: false }
  }

  const w = eventStream(c.requestId, leave, c.heartbeatMs, c.headers)
  writer = w
  for (const [event, data] of early) w.send(event, data)
  early.length = 0
  void (async () => {
    try {
      const next = await Promise.race([work, gone])
      if (next === 'gone' || c.signal.aborted) {
        await left()
        return
      }
      state = next.ok ? 'finishing' : 'failed'
      if (!next.ok) {
        w.send('error', errorBody(await c.fail(next.e, next.e instanceof ClientGone), c.requestId))
        return
      }
      const f = await safeFinish(next.out)
      w.send(f.ok ? 'result' : 'error', f.ok ? f.data : errorBody(f.error, c.requestId))
    } catch {
      // Releasing failed (the store is down): the reconciler releases it; the client still gets a last event.
      const err = new ServiceError(500, 'INTERNAL', 'The call could not be completed; nothing was charged.')
      w.send('error', errorBody(err, c.requestId))
    } finally {
      c.signal.removeEventListener('abort', leave)
      w.close()
      c.onEnd?.()
    }
  })()
  return { response: w.response, streaming: true }
}
