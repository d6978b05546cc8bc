/** Limits: request bodies, refused payments, kept paid results. */
import { type Reader, variable } from './declare'
import type { Config } from './types'

export const BODY_LIMIT_BYTES = variable({
  name: 'BODY_LIMIT_BYTES',
  yaml: 'server.body_limit_bytes',
  default: 1_048_576,
  min: 1024,
  concern: 'limits',
  description: 'request body cap (larger bodies: 413)',
})
export const BODY_TIMEOUT_MS = variable({
  name: 'BODY_TIMEOUT_MS',
  yaml: 'server.body_timeout_ms',
  default: 15_000,
  min: 100,
  concern: 'limits',
  description: 'a request body must arrive within this many ms (slow-body cut-off)',
})
export const INVALID_PAYMENT_LIMIT = variable({
  name: 'INVALID_PAYMENT_LIMIT',
  default: 30,
  min: 0,
  concern: 'limits',
  description: 'refusals that cost verification work, per client and per payer per minute, before 429 (0 = unlimited)',
})
export const PAID_RESULTS_MAX_MB = variable({
  name: 'PAID_RESULTS_MAX_MB',
  default: 64,
  min: 1,
  concern: 'limits',
  description: 'total size of paid results kept for collection again, in MiB (oldest dropped first)',
})

export const limitVariables = [BODY_LIMIT_BYTES, BODY_TIMEOUT_MS, INVALID_PAYMENT_LIMIT, PAID_RESULTS_MAX_MB]

export function readLimits(
  r: Reader,
): Pick<Config, 'bodyLimitBytes' | 'bodyTimeoutMs' | 'invalidPaymentLimit' | 'paidResultsMaxBytes'> {
  return {
    bodyLimitBytes: r.number(BODY_LIMIT_BYTES),
    bodyTimeoutMs: r.number(BODY_TIMEOUT_MS),
    invalidPaymentLimit: r.number(INVALID_PAYMENT_LIMIT),
    paidResultsMaxBytes: r.number(PAID_RESULTS_MAX_MB) * 1_048_576,
  }
}
