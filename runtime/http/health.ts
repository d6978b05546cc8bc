import type { Logger } from '../sdk'
import { errorAnswer } from './error-answer'
import { hasValidUrl, invalidHost } from './request-url'
import { BASE_HEADERS, errorResponse, newRequestId } from './respond'

/**
 * A Headers object built once: Bun copies it into each Response (~1 µs), where a plain object of the same headers is
 * converted header by header on every answer (~5 µs for 8). Only what a /health reader uses: the preflight's headers
 * (allowed methods and headers, max age) mean something on the OPTIONS answer alone, and the exposed payment headers
 * are never on /health; the bytes of each answer cost the server too (docs/benchmarks.md §13).
 */
const HEALTH_HEADERS = new Headers({
  'content-type': 'application/json; charset=utf-8',
  'access-control-allow-origin': BASE_HEADERS['access-control-allow-origin']!,
  'x-content-type-options': BASE_HEADERS['x-content-type-options']!,
  'cache-control': 'no-store',
})
const UP = { status: 200, headers: HEALTH_HEADERS }
const DOWN = { status: 503, headers: HEALTH_HEADERS }

export interface HealthOptions {
  /** The document's fields; `database` is whether the last ping answered. */
  report(database: boolean): unknown
  /** The storage's ping (false: the database is down, and /health answers 503). */
  ping(): Promise<boolean>
  /** Counts an answer's status in the HTTP status counter (runtime/ops, given by the app only when metrics are on). */
  count?: (status: number) => void
  log: Logger
}

/**
 * GET /health: the report, with the database pinged at most once a second (the answer in between built from the
 * cached body, synchronously: no promise per request).
 *
 * `answer` is the route's handler inside the app (`app.handle`). `direct` is the same answer as one of Bun.serve's
 * own routes (runtime/app.ts hands it to Bun's router): a health probe never enters Elysia, whose compiled route
 * builds a context, runs the global hook and maps the answer (1.4–2.8 µs of CPU per request less, interleaved
 * against the app's route: docs/benchmarks.md §13, third pass). `direct` keeps what the app's hooks give the other routes: a malformed Host is the 400
 * INVALID_HOST of the one error shape, an error is answered by the app's error answer, and with metrics on the
 * answer is counted by status under the `health` route group, as the ops hook counts every answer of the app.
 */
export function healthRoute(o: HealthOptions) {
  let dbOk = true
  let checkedAt = 0
  let body = ''
  const fresh = async () => {
    dbOk = await o.ping()
    body = JSON.stringify(o.report(dbOk))
    return new Response(body, dbOk ? UP : DOWN)
  }
  // No `return f(…)` in this function's source: Elysia judges a handler async from its source and would wrap it in a
  // promise per request (runtime/app.ts, refuseInvalidHost).
  const answer = (): Response | Promise<Response> => {
    const now = Date.now()
    let r: Response | Promise<Response>
    if (now - checkedAt < 1000 && body) r = new Response(body, dbOk ? UP : DOWN)
    else {
      checkedAt = now
      r = fresh()
    }
    return r
  }
  const failed = (e: unknown, id = newRequestId()) => errorAnswer(e, 'UNKNOWN', id, o.log)
  const count = (r: Response) => {
    o.count!(r.status)
    return r
  }
  const direct = (request: Request): Response | Promise<Response> => {
    let r: Response | Promise<Response>
    try {
      r = hasValidUrl(request) ? answer() : errorResponse(invalidHost(request), newRequestId())
    } catch (e) {
      r = failed(e)
    }
    if (r instanceof Promise) r = r.catch((e) => failed(e))
    if (!o.count) return r
    return r instanceof Promise ? r.then(count) : count(r)
  }
  return { answer, direct }
}
