/** One field-level problem in a request body. `path` is a JSON pointer such as `/text` or `/rows/3`. */
export interface FieldIssue {
  path: string
  message: string
}

/**
 * The one error every service and every part of the runtime throws for an expected failure.
 * The runtime turns it into `{ error: { code, message, details? }, request_id }` with `status`.
 * Anything with status >= 400 is never settled.
 *
 * @example
 * throw new ServiceError(422, 'INVALID_INPUT', 'value must be 1-3999', [{ path: '/value', message: 'out of range' }])
 */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Extra top-level fields for the error object, e.g. `{ upstream: 'open-meteo', retryable: true }`. */
    readonly extra?: Record<string, unknown>,
    /** Extra response headers, e.g. `{ 'Retry-After': '30' }`. */
    readonly headers?: Record<string, string>,
  ) {
    super(message)
    this.name = 'ServiceError'
  }
}

/**
 * A 422 for one bad field.
 * @example throw invalid('value', 'must be an integer from 1 to 3999')
 */
export function invalid(field: string, message: string): ServiceError {
  const path = field.startsWith('/') ? field : `/${field.replace(/\./g, '/')}`
  return new ServiceError(422, 'INVALID_INPUT', `${field}: ${message}`, [{ path, message }] satisfies FieldIssue[])
}

/**
 * A 502/504 for a failed upstream (live data, web fetch, model). Never settled.
 * @example throw upstreamError('open-meteo', 'timed out after 5000 ms', { timeout: true })
 */
export function upstreamError(upstream: string, message: string, opts: { timeout?: boolean; retryable?: boolean; status?: number } = {}): ServiceError {
  const status = opts.status ?? (opts.timeout ? 504 : 502)
  return new ServiceError(status, opts.timeout ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR', message, undefined, {
    upstream,
    retryable: opts.retryable ?? true,
  })
}
