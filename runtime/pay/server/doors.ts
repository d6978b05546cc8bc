/**
 * The two doors of a paid call, as types (runtime/pay/README.md): what the pipeline hands to `admit`, what `admit`
 * returns (data, never an HTTP answer), what an admitted call holds until `finish`, and the hold a payment scheme
 * implements (the `exact` scheme: runtime/pay/schemes/exact/scheme.ts).
 * @module pay/server/doors
 */
import type { CatalogService } from '../../catalog/index'
import type { Config } from '../../config'
import type { StatsStore, ThrottleStore } from '../../db/store'
import type { Logger, TierName } from '../../sdk'
import type { PaymentRequirements as X402Requirements } from '@x402/core/types'
import type { PaymentRequirements } from '../types'
import type { ChannelOffer } from '../schemes/batch-settlement/scheme'
import type { PaymentGate } from '../schemes/exact/gate'
import type { Collected, PaidResults } from './kept-results'
import type { ReceiptIssuer } from './receipts'
import type { SettleOutcome } from '../schemes/exact/settle-kept'

export interface PaidCallDeps {
  config: Config
  /** Costly payment refusals per client (and payer, counted by the gate) per minute; past the limit, 429 before any work. */
  refusals: ThrottleStore
  /** Failing paid runs per payer (runtime/http/throttle.ts PAYER_FAILED_RUNS); past the limit, 429 before the handler. */
  failingRuns: ThrottleStore
  gate: PaymentGate
  stats: StatsStore
  payTo: string
  log: Logger
  /** Paid results kept for collection again (same payment or payment identifier, same request). */
  results: PaidResults
  /** Signs the receipt of every paid answer (runtime/pay/server/receipts.ts). */
  receipts: ReceiptIssuer
  /** Payment channels (x402 `batch-settlement`), offered second in every 402 when this server can serve them. */
  channels?: ChannelOffer
}

/** A paid request as the pipeline read it (body, tier, resource), before any payment check. */
export interface PaidRequest {
  svc: CatalogService
  tier: TierName
  /** The paid resource: the URL the 402 challenge names. */
  resource: string
  /** The PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1) header, or null for an unpaid request. */
  payment: { header: string; version: 1 | 2 } | null
  /** The raw body, whose hash (with service and tier) identifies the request a payment paid for. */
  raw: string
  requestId: string
  /** The caller's address, for the refusal throttle. */
  client: string
  /** The validated input (throws the 4xx of a bad body); read once the client is not throttled, before decoding. */
  input(): { input: unknown; ignored: string[] }
}

/**
 * What a scheme holds for an admitted payment until the handler's outcome is known. `exact`: the verified, reserved
 * authorization (runtime/pay/schemes/exact/scheme.ts). `finish` calls `keep` then `settle` after a result, `failed` after an
 * error, and `release` when one of them threw before the payment was let go.
 */
export interface PaymentHold {
  /** Keeps the result before it is charged (a repeated payment collects it). */
  keep(body: string): Promise<void>
  /** Charges the kept result: the settlement response (PAYMENT-RESPONSE) or why the result is withheld. */
  settle(): Promise<SettleOutcome>
  /**
   * The handler failed with `status`/`code` (499: the client left): nothing is charged, the run is counted against
   * the authorization where the scheme limits its runs (the one finish counts the throttles).
   */
  failed(status: number, code: string): Promise<void>
  /** Nothing is charged and nothing counted (the request failed around the handler); never throws. */
  release(why: string): Promise<void>
}

/** A payment admitted (verified and held), waiting for the handler's outcome. */
export interface AdmittedCall {
  request: PaidRequest
  input: unknown
  /** Headers of the answer (the body fields that were ignored). */
  headers: Record<string, string>
  hold: PaymentHold
  /** The payer recovered from the payment (the authorization's `from`, the voucher's signer): its failing runs count,
   * and the worker pool's fair share is per payer (runtime/isolate). */
  payer: string
  /** Ends the in-flight mark of this payment (an identical retry is told to wait until then). */
  done?: () => void
}

/** What `admit` decided, as data: only `admitted` runs the handler; the others are answered by `answerOf`. */
export type Admission =
  /** No payment: the 402 challenge. */
  | { kind: 'challenge' }
  /** A repeated payment for the same request: its kept answer, nothing runs. */
  | { kind: 'collected'; collected: Collected; version: 1 | 2 }
  /** The payment is refused: the 402 challenge with the reason. */
  | {
      kind: 'refused'
      reason: string
      message: string
      headers: Record<string, string>
      /** A channel's cumulative mismatch: the `batch-settlement` entry with the spec's corrective `extra`. */
      corrective?: X402Requirements
    }
  | { kind: 'admitted'; call: AdmittedCall }

/** The handler's outcome, for `finish`: its result, or its error (`gone`: the client left before the answer). */
export type Outcome = { ok: true; out: unknown } | { ok: false; error: unknown; gone: boolean }

/** The request a scheme admits: the paid request with its validated input and the payment header. */
export interface SchemeRequest {
  request: PaidRequest
  header: string
  version: 1 | 2
  input: unknown
  ignored: string[]
  /** The requirements this resource offers (the 402's `accepts`), one per network. */
  accepts: PaymentRequirements[]
}

/** A payment scheme's first door: the second one is its `PaymentHold`. */
export type SchemeAdmit = (s: SchemeRequest, deps: PaidCallDeps) => Promise<Admission>
