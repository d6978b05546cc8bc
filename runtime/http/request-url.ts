import { ServiceError } from '../sdk/errors'

/**
 * The URL of a request. Bun builds `req.url` from the Host header, so a malformed Host (`a b`, `h:99999`,
 * `[::1`, ...) makes it unparsable: that is the client's mistake, a 400, never a 500.
 */
export function requestUrl(req: Request): URL {
  try {
    return new URL(req.url)
  } catch {
    throw new ServiceError(400, 'INVALID_HOST', 'The Host header is not a valid host name or address.')
  }
}
