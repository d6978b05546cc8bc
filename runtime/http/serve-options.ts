import { ServiceError, type Logger } from '../sdk'
import { errorResponse, newRequestId } from './respond'

/**
 * Bun.serve's own body cap, set out of the way. Bun enforces maxRequestBodySize itself: a Content-Length over it is
 * answered 413 without a body before any of our code runs, and a chunked body is cut when the bytes *received*
 * (not read) pass it, replacing whatever we answer with the same bodiless 413. So the limit is ours alone
 * (BODY_LIMIT_BYTES, JSON 413 in the error shape from runtime/http/body.ts), and memory stays bounded because:
 * every route that reads a body reads it through readBody (refused on the announced length, reading stops at the
 * limit, the stream is cancelled), and Bun discards a body nobody reads (test/money/body-limit.test.ts streams
 * 100 MB at the server and checks its peak memory).
 */
const BUN_BODY_CAP = Number.MAX_SAFE_INTEGER

/**
 * Options for `app.listen` shared by `bun start` and test servers. Never Bun's development mode (Elysia turns it on
 * unless NODE_ENV=production): its error page shows the working directory, paths, the stack and source lines. An
 * error that escapes the app's own hooks reaches `error`: logged through the redacting logger (never printed raw),
 * answered 500 in the one error shape.
 */
export const serveOptions = (port: number, hostname: string, log: Logger) => ({
  port,
  hostname,
  maxRequestBodySize: BUN_BODY_CAP,
  development: false,
  error(e: Error) {
    const id = newRequestId()
    log.error('unhandled error outside the app', { request_id: id, error: String(e?.stack ?? e) })
    return errorResponse(new ServiceError(500, 'INTERNAL', 'An internal error occurred; nothing was charged.'), id)
  },
})
