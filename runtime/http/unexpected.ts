import { ServiceError, type Logger } from '../sdk'

/**
 * The one path from "some error" to an answer: a `ServiceError` passes through unchanged; anything else is logged
 * once (stack and `fields`, never sent) and becomes a 500 INTERNAL that says nothing was charged. Used by the paid
 * pipeline, the demo, the app's error hook, the MCP bridge and the dev payer.
 */
export function asServiceError(
  e: unknown,
  log: Logger,
  fields: Record<string, unknown> = {},
  what = 'unhandled error',
): ServiceError {
  if (e instanceof ServiceError) return e
  log.error(what, { ...fields, error: String((e as Error)?.stack ?? e) })
  return new ServiceError(500, 'INTERNAL', 'An internal error occurred; nothing was charged.', { cause: e })
}
