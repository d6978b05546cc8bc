import { ServiceError, type Logger } from '../sdk'
import { errorResponse } from './respond'
import { asServiceError } from './unexpected'

/**
 * The answer to an error that reached an app's error hook (the main app's, and each lazily built route group's):
 * a body that does not parse is a 400 INVALID_JSON, any other error goes through asServiceError (a ServiceError as
 * it is, a failing database a retryable 503 DATABASE_UNAVAILABLE, anything else logged with its request id and
 * Elysia's code, answered 500 INTERNAL). Always the one error shape, carrying `requestId`.
 */
export function errorAnswer(error: unknown, code: unknown, requestId: string, log: Logger): Response {
  if (code === 'PARSE')
    return errorResponse(new ServiceError(400, 'INVALID_JSON', 'The body could not be parsed.'), requestId)
  return errorResponse(asServiceError(error, log, { request_id: requestId, code: String(code) }), requestId)
}
