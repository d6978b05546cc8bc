import { handlerFor, invalid, ServiceError } from '../../runtime/sdk'
import { WORKER_SOURCE } from './worker-source'
import manifest from './manifest'

const TIME_LIMIT_MS = 500
const MAX_MATCHES = 1000
const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' }))

type Result = { ok: true; matches: never[]; total: number } | { ok: false; error: string }

/** Runs the regex in a fresh worker; terminates it after the time limit. */
function run(pattern: string, flags: string, text: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const w = new Worker(url)
    const timer = setTimeout(() => {
      w.terminate()
      reject(new ServiceError(422, 'REGEX_TIMEOUT', `The pattern did not finish within ${TIME_LIMIT_MS} ms (catastrophic backtracking?); simplify it.`, [{ path: '/pattern', message: 'too slow' }]))
    }, TIME_LIMIT_MS)
    w.onmessage = (e) => {
      clearTimeout(timer)
      w.terminate()
      resolve(e.data as Result)
    }
    w.onerror = (e) => {
      clearTimeout(timer)
      w.terminate()
      resolve({ ok: false, error: e.message })
    }
    w.postMessage({ pattern, flags, text, max: MAX_MATCHES })
  })
}

export default handlerFor(manifest, async ({ pattern, text, flags = 'g' }) => {
  if (new Set(flags).size !== flags.length) throw invalid('flags', 'repeats a flag')
  try {
    new RegExp(pattern, flags)
  } catch (e) {
    throw invalid('pattern', (e as Error).message)
  }
  const r = await run(pattern, flags + 'd', text)
  if (!r.ok) throw invalid('pattern', r.error)
  return { pattern, flags, match_count: r.total, truncated: r.total > r.matches.length, matches: r.matches }
})
