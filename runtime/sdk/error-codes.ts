/**
 * Every `error.code` the runtime and more than one service answer, in one place. A thrower that needs a new code
 * adds it here (one line, with a comment saying when it is used), so agents and the docs see one closed vocabulary.
 * A code only one service answers is declared in that service's manifest (`errors`, thrown with `ownError`): boot
 * merges those with this list and refuses a collision.
 */
export const ERROR_CODES = [
  // Request shape
  'INVALID_INPUT', // a field is missing, of the wrong type or out of range (details[] names each field)
  'INVALID_JSON', // the body is not JSON (or could not be parsed at all)
  'INVALID_TIER', // ?tier= / body.tier is not one of the tiers
  'INVALID_HOST', // the Host header is not a host name or address
  'INVALID_QUERY', // a discovery/search or admin query parameter is invalid
  'INVALID_CURSOR', // a pagination cursor this server did not issue
  'INVALID_LIMIT', // a page size out of range
  'PAYLOAD_TOO_LARGE', // the body exceeds the byte limit
  'INPUT_TOO_LARGE', // one field exceeds a service's size limit
  'UNSUPPORTED_MEDIA_TYPE', // the body (or a fetched URL) has a content type the service cannot read
  'BODY_READ_FAILED', // the connection broke off mid-body
  'REQUEST_TIMEOUT', // the body did not arrive in time
  'METHOD_NOT_ALLOWED',
  'NOT_FOUND', // no such route / the upstream has no such item
  'CLIENT_CLOSED_REQUEST', // the client went away before the answer
  // Payment
  'INVALID_PAYMENT_IDENTIFIER',
  'PAYMENT_IDENTIFIER_CONFLICT',
  'PAYMENT_REFUSED', // (console only) a 402 answered to an offered payment
  'PAYMENT_UNAVAILABLE', // the facilitator (or the ledger database) cannot be reached; retryable
  'DATABASE_UNAVAILABLE', // the shared database (DATABASE_URL) is down: /stats, the demo; retryable
  'RESULT_NOT_KEPT',
  'TWO_PAYMENT_CREDENTIALS', // an x402 payment header and an MPP Authorization: Payment credential in one request (400)
  'SETTLEMENT_FAILED', // a streamed call's settlement did not complete after its text was sent: result withheld
  'TOO_MANY_INVALID_PAYMENTS',
  'TOO_MANY_FAILED_RUNS', // a payer whose paid runs kept failing is cooled down across authorizations (429, Retry-After)
  'REFUSED_TO_SIGN', // a dev payer (Base or Solana) refuses to sign anything but a USDC payment to this server
  // Demo
  'DEMO_DISABLED',
  'DEMO_QUOTA_EXCEEDED',
  // Server and availability
  'INTERNAL', // an unexpected error; nothing was charged
  'HANDLER_TIMEOUT', // the call outlived its deadline and was stopped (504); nothing was charged
  'MEMORY_LIMIT', // the input made the call use more memory than the server allows; it was stopped (422), not charged
  'RESULT_OUT_OF_RANGE', // a handler produced a number outside double precision
  'NOT_IMPLEMENTED',
  'NOT_CONFIGURED',
  'NOT_AVAILABLE',
  'MODEL_NOT_CONFIGURED',
  'MODEL_UNAVAILABLE',
  'BUSY', // too many runs in progress; retry shortly
  'ABORTED',
  // Upstreams and fetched documents
  'UPSTREAM_ERROR',
  'UPSTREAM_TIMEOUT',
  'URL_NOT_ALLOWED',
  'RESPONSE_TOO_LARGE', // a fetched document, or the answer this input would get, is over its cap (422)
  'UNREADABLE_DOCUMENT',
  'NO_READABLE_CONTENT', // a fetched page has no readable text
  // Admin console
  'UNAUTHORIZED',
  'CROSS_ORIGIN',
  'TOO_MANY_ATTEMPTS',
] as const

/** One of the codes above; `ServiceError` accepts nothing else. */
export type ErrorCode = (typeof ERROR_CODES)[number]
