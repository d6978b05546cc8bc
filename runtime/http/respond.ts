import type { ServiceError } from '../sdk/errors'

/** Headers every response carries (CORS for browser agents, no MIME sniffing). */
export const BASE_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE, WWW-Authenticate, Payment-Receipt, X-Request-Id, Retry-After',
  'x-content-type-options': 'nosniff',
}

export const PREFLIGHT_HEADERS: Record<string, string> = {
  ...BASE_HEADERS,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'Content-Type, PAYMENT-SIGNATURE, X-PAYMENT, Authorization, Accept-Payment, Access-Control-Expose-Headers',
  'access-control-max-age': '600',
}

/** A JSON response with the base headers and a request id. */
export function json(body: unknown, status = 200, requestId?: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...BASE_HEADERS,
      ...(requestId ? { 'x-request-id': requestId } : {}),
      ...headers,
    },
  })
}

/** The one error shape: `{ error: { code, message, details?, ...extra }, request_id }`. */
export function errorBody(e: ServiceError, requestId: string) {
  return {
    error: { code: e.code, message: e.message, ...(e.details !== undefined ? { details: e.details } : {}), ...e.extra },
    request_id: requestId,
  }
}

export function errorResponse(e: ServiceError, requestId: string): Response {
  return json(errorBody(e, requestId), e.status, requestId, e.headers)
}

const BOOT_PREFIX = Array.from(crypto.getRandomValues(new Uint8Array(6)), (x) => x.toString(16).padStart(2, '0')).join(
  '',
)
const ID_PREFIX = `req_${BOOT_PREFIX}`
let sequence = 0

/** A unique request id: `req_` + a random per-process prefix (12 hex) + a counter (8 hex). */
export function newRequestId(): string {
  sequence = (sequence + 1) % 0x100000000
  // 2^32 + n in hex is '1' and n's 8 digits, zero-padded: cheaper than padStart on every request
  return ID_PREFIX + (0x100000000 + sequence).toString(16).slice(1)
}
