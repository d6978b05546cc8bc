import { isDatabaseError } from '../db/errors'
import { type ErrorCode, ServiceError, type Logger } from '../sdk'

/** What a failing database makes unavailable, as the answer says it (default: the database itself). */
export interface Unavailable {
  code: ErrorCode
  message: string
}

const DATABASE: Unavailable = {
  code: 'DATABASE_UNAVAILABLE',
  message: 'The database is unavailable right now; retry shortly.',
}

/**
 * The one path from "some error" to an answer: a `ServiceError` passes through unchanged; a database that fails
 * (SQLite error, the shared Postgres down or too slow) is logged and becomes a retryable 503 (`unavailable` says
 * what the caller could not get); anything else is logged once (stack and `fields`, never sent) and becomes a 500
 * INTERNAL that says nothing was charged. Used by the paid pipeline, the demo, the apps' error hooks, the MCP bridge
 * and the dev payer.
 */
export function asServiceError(
  e: unknown,
  log: Logger,
  fields: Record<string, unknown> = {},
  what = 'unhandled error',
  unavailable: Unavailable = DATABASE,
): ServiceError {
  if (e instanceof ServiceError) return e
  if (isDatabaseError(e)) {
    log.error('database unavailable', { ...fields, error: String((e as Error).message).slice(0, 200) })
    return new ServiceError(503, unavailable.code, unavailable.message, {
      retryable: true,
      headers: { 'retry-after': '5' },
    })
  }
  log.error(what, { ...fields, error: String((e as Error)?.stack ?? e) })
  return new ServiceError(500, 'INTERNAL', 'An internal error occurred; nothing was charged.', { cause: e })
}
