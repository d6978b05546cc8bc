import type { ErrorCode } from './error-codes'
import type { DeclaredErrors } from './manifest'

export type { ErrorCode } from './error-codes'

/** One field-level problem in a request body. `path` is a JSON pointer such as `/text` or `/rows/3`. */
export interface FieldIssue {
  path: string
  message: string
}

/** The optional parts of a `ServiceError`. */
export interface ServiceErrorOptions {
  /** Machine-readable detail, e.g. `FieldIssue[]` for a 422. Sent as `error.details`. */
  details?: unknown
  /** Extra response headers, e.g. `{ 'Retry-After': '30' }`. */
  headers?: Record<string, string>
  /** Whether the same request may succeed later. Sent as `error.retryable`. */
  retryable?: boolean
  /** The underlying error, for logs only; never sent to the client. */
  cause?: unknown
  /** Extra top-level fields for the error object, e.g. `{ upstream: 'open-meteo' }`. */
  extra?: Record<string, unknown>
}

/**
 * The one error every service and every part of the runtime throws for an expected failure.
 * The runtime turns it into `{ error: { code, message, details?, retryable?, ...extra }, request_id }` with `status`.
 * Anything with status >= 400 is never settled.
 *
 * @example
 * throw new ServiceError(422, 'INVALID_INPUT', 'value must be 1-3999', { details: [{ path: '/value', message: 'out of range' }] })
 */
export class ServiceError extends Error {
  readonly details?: unknown
  readonly headers?: Record<string, string>
  /** Extra top-level fields of the error object (including `retryable` when given). */
  readonly extra?: Record<string, unknown>

  constructor(
    readonly status: number,
    readonly code: ErrorCode | OwnErrorCode,
    message: string,
    opts: ServiceErrorOptions = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause })
    this.name = 'ServiceError'
    this.details = opts.details
    this.headers = opts.headers
    this.extra = opts.retryable === undefined ? opts.extra : { ...opts.extra, retryable: opts.retryable }
  }

  /** `true`/`false` when the thrower said whether a retry may succeed; `undefined` when it did not. */
  get retryable(): boolean | undefined {
    const r = this.extra?.retryable
    return typeof r === 'boolean' ? r : undefined
  }
}

/** A code a service declares in its manifest's `errors`; only `ownError` makes one (the runtime's list stays closed). */
export type OwnErrorCode = string & { readonly ownErrorCode: unique symbol }

/**
 * An error with one of the service's own codes (its manifest's `errors`): the status follows from the declaration.
 * @example throw ownError(manifest, 'REGEX_TIMEOUT', 'pattern took too long', { details })
 */
export function ownError<M extends { errors?: DeclaredErrors }>(
  manifest: M,
  code: keyof NonNullable<M['errors']> & string,
  message: string,
  opts: ServiceErrorOptions = {},
): ServiceError {
  const declared = manifest.errors?.[code]
  if (!declared) throw new Error(`error code ${code} is not declared in the manifest's errors`)
  return new ServiceError(declared.status, code as OwnErrorCode, message, opts)
}

/**
 * A 422 for one bad field.
 * @example throw invalid('value', 'must be an integer from 1 to 3999')
 */
export function invalid(field: string, message: string): ServiceError {
  const path = field.startsWith('/') ? field : `/${field.replace(/\./g, '/')}`
  return new ServiceError(422, 'INVALID_INPUT', `${field}: ${message}`, {
    details: [{ path, message }] satisfies FieldIssue[],
  })
}

/**
 * A 502/504 for a failed upstream (live data, web fetch, model). Never settled.
 * @example throw upstreamError('open-meteo', 'timed out after 5000 ms', { timeout: true })
 */
export function upstreamError(
  upstream: string,
  message: string,
  opts: { timeout?: boolean; retryable?: boolean; status?: number } = {},
): ServiceError {
  const status = opts.status ?? (opts.timeout ? 504 : 502)
  return new ServiceError(status, opts.timeout ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR', message, {
    retryable: opts.retryable ?? true,
    extra: { upstream },
  })
}
