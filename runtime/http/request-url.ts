import { ServiceError } from '../sdk/errors'

/** The answer to a request whose Host header is malformed (`a b`, `h:99999`, `[::1`, `%`, ...) or missing (HTTP/1.0). */
export const invalidHost = (req?: Request) =>
  req && !req.headers.has('host')
    ? new ServiceError(400, 'INVALID_HOST', 'A Host header is required.')
    : new ServiceError(400, 'INVALID_HOST', 'The Host header is not a valid host name or address.')

/**
 * Whether Bun could build the request's URL. Bun builds `req.url` from the Host header and, when the Host is
 * malformed, leaves only the path (`/api/v1/slugify`), which no URL parser accepts: the client's mistake, a 400.
 * The main app refuses such requests before any route or hook (runtime/app.ts), so every later `new URL(req.url)`
 * holds.
 */
export const hasValidUrl = (req: Request) => URL.canParse(req.url)

/** The URL of a request (a ServiceError 400 INVALID_HOST when the Host header made it unparsable). */
export function requestUrl(req: Request): URL {
  try {
    return new URL(req.url)
  } catch {
    throw invalidHost(req)
  }
}
