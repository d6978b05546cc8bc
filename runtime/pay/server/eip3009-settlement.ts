/**
 * The EIP-3009 settlement engine as the resource server's contract: verify and reserve one `transferWithAuthorization`
 * (cheap checks, the ledger's reservation, the facilitator's verification, the payer's funds in flight), then settle
 * it after a successful handler, or let it go. `exact` builds it (runtime/pay/schemes/exact/gate.ts, the
 * `PaymentGate`) and boot hands the same engine to every other scheme that settles EIP-3009 authorizations (MPP's
 * `evm` `charge`, runtime/pay/schemes/mpp): one ledger, one set of payer holds, failure throttles and reconciliation.
 * @module pay/server/eip3009-settlement
 */
import type { DecodedPayment, PaymentRequirements, SettleResult } from '../types'
import type { Collected } from './doors'

/** The protocol that admitted a payment, recorded on its ledger row by the server (never read from the payload). */
export type PaymentProtocol = 'x402' | 'mpp'

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
    /** The protocol of the plugin that admits it (its ledger row's `protocol`: /stats' per-protocol split). */
    protocol?: PaymentProtocol,
  ): Promise<SettlementTicket>
  /** Settles after a successful handler; a result is served only when this returns success. */
  settle(t: SettlementTicket): Promise<SettleResult>
  /** Nothing ran: nothing is settled and the authorization may be used again. */
  release(t: SettlementTicket, reason: string): Promise<void>
  /** The handler failed with `status`/`code`: nothing is settled, the run counts against the authorization. */
  failed(t: SettlementTicket, status: number, code: string): Promise<void>
  /** True for what `authorize` throws when payments are unavailable (answered 503, retryable). */
  unavailable(e: unknown): boolean
  /** The paid results kept before settlement, collectable by the same authorization for the same request. */
  results: KeptResults
}

/**
 * Paid results kept for collection again (`exact`'s PaidResults, runtime/pay/schemes/exact/kept-results.ts): a result
 * is kept before it is charged, so an authorization whose settlement ended up pending collects it once reconciled,
 * and nothing runs or settles twice. `hash`: the request's hash (server/request-hash.ts).
 */
export interface KeptResults {
  /** Keeps a successful handler's answer before settlement (collectable only once the payment is settled). */
  keep(t: SettlementTicket, key: string | null, hash: string, body: string): Promise<void>
  /**
   * The kept outcome of this very authorization (same fields, signed by the payer) for the identical request: the
   * result once settled, `pending` while it settles or waits for reconciliation; null otherwise (the refusal stands).
   */
  byAuthorization(p: DecodedPayment, req: PaymentRequirements, hash: string): Promise<Collected | null>
  /** The payment settled in its request: the receipt sent with the answer, kept for every later collection. */
  settled(t: SettlementTicket, receipt: string, transaction: string): Promise<void>
  /** A receipt signed at collection (settled by reconciliation), kept so every later collection sends it. */
  receiptIssued(paymentId: number, receipt: string): Promise<void>
  /** The payment will never settle: its kept result is forgotten. Never throws. */
  discard(t: SettlementTicket): Promise<void>
}
