/**
 * The EIP-3009 settlement engine as the resource server's contract: verify and reserve one `transferWithAuthorization`
 * (cheap checks, the ledger's reservation, the facilitator's verification, the payer's funds in flight), then settle
 * it after a successful handler, or let it go. `exact` builds it (runtime/pay/schemes/exact/gate.ts, the
 * `PaymentGate`) and boot hands the same engine to every other scheme that settles EIP-3009 authorizations (MPP's
 * `evm` `charge`, runtime/pay/schemes/mpp): one ledger, one set of payer holds, failure throttles and reconciliation.
 * @module pay/server/eip3009-settlement
 */
import type { DecodedPayment, PaymentRequirements, SettleResult } from '../types'

/** A verified, reserved authorization waiting for the handler's outcome. */
export interface SettlementTicket {
  id: number
  payment: DecodedPayment
  requirements: PaymentRequirements
  payer: string
  slug: string
  client: string
}

export interface Eip3009Settlement {
  /**
   * Verifies and reserves: throws PaymentRefused (with an x402 reason), a ServiceError (429), or an error for which
   * `unavailable` is true (the ledger or the verification unreachable: 503, nothing was charged). Never runs the handler.
   */
  authorize(
    payment: DecodedPayment,
    req: PaymentRequirements,
    slug: string,
    tier: string,
    requestId: string,
    client?: string,
  ): Promise<SettlementTicket>
  /** Settles after a successful handler; a result is served only when this returns success. */
  settle(t: SettlementTicket): Promise<SettleResult>
  /** Nothing ran: nothing is settled and the authorization may be used again. */
  release(t: SettlementTicket, reason: string): Promise<void>
  /** The handler failed with `status`/`code`: nothing is settled, the run counts against the authorization. */
  failed(t: SettlementTicket, status: number, code: string): Promise<void>
  /** True for what `authorize` throws when payments are unavailable (answered 503, retryable). */
  unavailable(e: unknown): boolean
}
