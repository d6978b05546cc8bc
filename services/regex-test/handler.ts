import { availableParallelism } from 'node:os'
import { handlerFor, invalid, ownError, ServiceError } from '../../runtime/sdk'
import { WORKER_SOURCE } from './worker-source'
import manifest from './manifest'

/** Hard limit for one pattern run, from the worker's start (a fresh worker is ready in a few ms). */
export const TIME_LIMIT_MS = 500
const MAX_MATCHES = 1000
/** Listed match + group characters; beyond this, matches are counted but not listed (truncated: true). */
const OUTPUT_BUDGET = 1_000_000
/** Workers running at once (each may spin a core for TIME_LIMIT_MS); later calls wait in a short queue. */
const MAX_WORKERS = Math.max(2, availableParallelism())
const MAX_QUEUED = 64

const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' }))

interface Match {
  match: string
  index: number
  end: number
  groups: (string | null)[]
  group_spans: ([number, number] | null)[]
  named_groups: Record<string, string | null>
}
type Result = { ok: true; matches: Match[]; total: number } | { ok: false; error: string }

let running = 0
const queue: Array<() => void> = []

async function slot(signal: AbortSignal): Promise<() => void> {
  if (running >= MAX_WORKERS) {
    if (queue.length >= MAX_QUEUED)
      throw new ServiceError(503, 'BUSY', 'Too many regex runs in progress; retry in a second.', {
        headers: { 'Retry-After': '1' },
        retryable: true,
      })
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal.removeEventListener('abort', stop)
        resolve()
      }
      const stop = () => {
        queue.splice(queue.indexOf(go), 1)
        reject(new ServiceError(503, 'BUSY', 'Gave up waiting for a free regex worker.', { retryable: true }))
      }
      queue.push(go)
      signal.addEventListener('abort', stop, { once: true })
    })
  }
  running++
  let released = false
  return () => {
    if (released) return
    released = true
    running--
    queue.shift()?.()
  }
}

/** Runs the regex in a fresh worker; terminates it after the time limit or when the request is aborted. */
async function run(pattern: string, flags: string, text: string, signal: AbortSignal): Promise<Result> {
  if (signal.aborted) throw new ServiceError(503, 'ABORTED', 'The request was aborted.')
  const release = await slot(signal)
  let w: Worker
  try {
    w = new Worker(url)
  } catch {
    release()
    throw new ServiceError(503, 'BUSY', 'Could not start a regex worker; retry in a second.', {
      headers: { 'Retry-After': '1' },
      retryable: true,
    })
  }
  return new Promise<Result>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', abort)
      w.terminate()
      release()
    }
    const timer = setTimeout(() => {
      done()
      reject(
        ownError(
          manifest,
          'REGEX_TIMEOUT',
          `pattern took too long: it did not finish within ${TIME_LIMIT_MS} ms (catastrophic backtracking?); simplify it or shorten the text.`,
          { details: [{ path: '/pattern', message: 'took too long' }] },
        ),
      )
    }, TIME_LIMIT_MS)
    const abort = () => {
      done()
      reject(new ServiceError(503, 'ABORTED', 'The request was aborted.'))
    }
    signal.addEventListener('abort', abort, { once: true })
    w.onmessage = (e) => {
      done()
      resolve(e.data as Result)
    }
    w.onerror = (e) => {
      done()
      resolve({ ok: false, error: e.message || 'the pattern failed to run' })
    }
    w.postMessage({ pattern, flags, text, max: MAX_MATCHES, budget: OUTPUT_BUDGET })
  })
}

export default handlerFor(manifest, async ({ pattern, text, flags = 'g' }, ctx) => {
  if (new Set(flags).size !== flags.length) throw invalid('flags', 'repeats a flag')
  try {
    new RegExp(pattern, flags)
  } catch (e) {
    throw invalid('pattern', (e as Error).message)
  }
  const r = await run(pattern, flags.includes('d') ? flags : flags + 'd', text, ctx.signal)
  if (!r.ok) throw invalid('pattern', r.error)
  return {
    pattern,
    flags,
    match_count: r.total,
    listed: r.matches.length,
    truncated: r.total > r.matches.length,
    matches: r.matches,
  }
})
