import { BASE_HEADERS, errorResponse } from '../../http/respond'
import { ServiceError } from '../../sdk'
import type { Collected } from './doors'
import { REASON } from '../reasons'

/**
 * The answer to a repeated payment: the kept 200 with the first receipt, 402 `settlement_pending` with
 * Retry-After, or 409. `refuse` builds this resource's 402 challenge with a reason.
 */
export function collectedResponse(
  c: Collected,
  requestId: string,
  version: 1 | 2,
  refuse: (reason: string, message: string, headers: Record<string, string>) => Response,
): Response {
  switch (c.kind) {
    case 'result':
      return new Response(c.body, {
        status: 200,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          ...BASE_HEADERS,
          'x-request-id': requestId,
          [c.headerName ?? (version === 2 ? 'payment-response' : 'x-payment-response')]: c.receipt,
          'cache-control': 'private, no-store',
        },
      })
    case 'pending':
      return refuse(
        REASON.settlementPending,
        `This payment is still being settled; send the same payment again after ${c.retryAfter} s to collect the result.`,
        { 'retry-after': String(c.retryAfter) },
      )
    case 'conflict':
      return errorResponse(
        new ServiceError(
          409,
          'PAYMENT_IDENTIFIER_CONFLICT',
          'This payment identifier was already used for a different request; use a new identifier for a new request.',
        ),
        requestId,
      )
    case 'gone':
      return errorResponse(
        new ServiceError(
          409,
          'RESULT_NOT_KEPT',
          'This payment was already settled, but its result was too large to keep (or was evicted); nothing was charged again.',
        ),
        requestId,
      )
  }
}
