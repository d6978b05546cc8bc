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
import type { ReceiptIssuer } from './receipts'

export interface PaidCallDeps {
  config: Config
  /** Costly payment refusals per client (and payer, counted by the gate) per minute; past the limit, 429 before any work. */
  refusals: ThrottleStore
  /** Failing paid runs per payer (runtime/db/throttle.ts PAYER_FAILED_RUNS); past the limit, 429 before the handler. */
  failingRuns: ThrottleStore
  stats: StatsStore
  payTo: string
  log: Logger
  /** Signs the receipt of every paid answer (runtime/pay/server/receipts.ts). */
  receipts: ReceiptIssuer
  /** The payment schemes this server sells through (runtime/pay/server/schemes.ts), `exact` first. */
  schemes: SchemeRegistry
}

/** The payment a request presents: its header, and (x402 v2) the header's JSON decoded once, for the schemes to claim. */
export interface PresentedPayment {
  header: string
  version: 1 | 2
  /** 'mpp': an `Authorization: Payment` credential (MPP, paymentauth.org) rather than an x402 payment header. */
  protocol?: 'mpp'
  /** The v2 header's JSON (null when it is not base64 JSON within the size limit): `accepted.scheme`/`network`. */
  decoded: { accepted?: { scheme?: unknown; network?: unknown } } | null
}

/**
 * A payment scheme as a plugin of the resource server (x402's `register(network, scheme)`): the server names no
 * scheme; it asks the registered ones which one a payment belongs to, and what each offers in the 402.
 */
export interface SchemePlugin {
  /**
   * Its name, unique among the registered: x402's scheme name (`accepted.scheme`: 'exact', 'batch-settlement'), or
   * one that says which chain or protocol where a name is taken ('svm-exact'). A refusal's corrective entry goes to the
   * plugin named as its `scheme`.
   */
  readonly name: string
  /** This payment is this scheme's. A payment no scheme claims goes to the first registered (`exact`). */
  claims(p: PresentedPayment): boolean
  /** The first door: from the request and its payment to an Admission (the hold inside `admitted`). */
  admit(s: SchemeRequest, deps: PaidCallDeps): Promise<Admission>
  /**
   * Its entries in the 402's `accepts`, after the entries of the schemes registered before it. `base`: the resource's
   * priced `exact` entries, one per EVM network; `corrective`: a refusal's entry of this scheme (the spec's corrective
   * `extra`), in place of its plain entry on that network.
   */
  offers?(base: PaymentRequirements[], corrective?: X402Requirements): X402Requirements[]
  /** Grows when its offers change while running (the 402s and the published documents are built again). */
  readonly version?: number
  /**
   * Headers it adds to every 402 of the resource, beside x402's PAYMENT-REQUIRED (MPP: its `WWW-Authenticate: Payment`
   * challenges for the same `base` entries). Built per answer (they may expire), so kept cheap.
   */
  challengeHeaders?(r: PaidRequest, base: PaymentRequirements[]): Record<string, string>
  /** The refund door (a GET on a paid route): only a scheme that refunds (x402 `batch-settlement`). */
  refund?(
    p: PresentedPayment,
    r: PaidRequest,
    accepts: PaymentRequirements[],
    deps: PaidCallDeps,
  ): Promise<{ ok: true; response: Record<string, unknown> } | Exclude<Admission, { kind: 'admitted' }>>
}

/** The registered schemes, as the paid call reads them. */
export interface SchemeRegistry {
  /** The scheme a payment belongs to: the first that claims it, else the first registered. */
  pick(p: PresentedPayment): SchemePlugin
  /** Every registered scheme's 402 entries after `base` (the corrective entry goes to the scheme it names). */
  offers(base: PaymentRequirements[], corrective?: X402Requirements): X402Requirements[]
  /** The sum of the schemes' versions: a new value when a 402 changes. */
  readonly version: number
  /** The scheme that serves refunds, if any. */
  readonly refunder?: SchemePlugin
  /** Every registered scheme's extra 402 headers (`SchemePlugin.challengeHeaders`). */
  challengeHeaders(r: PaidRequest, base: PaymentRequirements[]): Record<string, string>
}

/**
 * A refusal answered with problem details (RFC 9457, `application/problem+json`) in place of the x402 body: MPP's
 * errors. The 402 still carries every scheme's challenge (a fresh one).
 */
export type ProblemDetails = { type: string; title: string; status: number; detail: string } & Record<string, unknown>

/** What a repeated payment gets instead of running the handler again. */
export type Collected =
  /** `unsigned`: the receipt was rebuilt from the ledger (settled by reconciliation), without a signed receipt yet. */
  | {
      kind: 'result'
      body: string
      receipt: string
      unsigned?: { paymentId: number; transaction: string; network: string; payer: string }
      /** The header the receipt goes in (MPP: `payment-receipt`); else PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1). */
      headerName?: string
    }
  | { kind: 'pending'; retryAfter: number }
  /** The payment identifier belongs to a different request. */
  | { kind: 'conflict' }
  /** Paid and settled, but the body was too large to keep (or evicted). */
  | { kind: 'gone' }

/** The answer body's `charged` (docs/channels.md "Pay for tokens used"): USDC atomic units and USD. */
export interface ChargedField {
  atomic: string
  usd: string
}

/** A hold's charge: the settlement response, or why the result is withheld. */
export type SettleOutcome =
  | {
      ok: true
      /** PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1). */
      headerName: string
      header: string
      /** The settlement response the header encodes (with the signed receipt in `extensions`). */
      response: Record<string, unknown>
      /** Paid by tokens used (a channel voucher on a model tier): what was charged, added to the answer's body. */
      charged?: ChargedField
    }
  | {
      ok: false
      reason: string
      message: string
      /** True when the transfer may still confirm: the same payment sent again collects the kept result. */
      pending: boolean
      headers: Record<string, string>
      /** The 402's body as problem details (MPP), in place of the x402 body. */
      problem?: ProblemDetails
    }

/** A paid request as the pipeline read it (body, tier, resource), before any payment check. */
export interface PaidRequest {
  svc: CatalogService
  tier: TierName
  /** The paid resource: the URL the 402 challenge names. */
  resource: string
  /**
   * The PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1) header, or (`protocol: 'mpp'`) the `Authorization: Payment`
   * credential; null for an unpaid request.
   */
  payment: { header: string; version: 1 | 2; protocol?: 'mpp' } | null
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
      /** The 402's body as problem details (MPP), in place of the x402 body. */
      problem?: ProblemDetails
    }
  | { kind: 'admitted'; call: AdmittedCall }

/** The handler's outcome, for `finish`: its result, or its error (`gone`: the client left before the answer). */
export type Outcome = { ok: true; out: unknown } | { ok: false; error: unknown; gone: boolean }

/** The request a scheme admits: the paid request with its validated input and the payment header. */
export interface SchemeRequest {
  request: PaidRequest
  header: string
  version: 1 | 2
  /** The header's JSON decoded once (x402 v2), as the scheme claimed it. */
  decoded: PresentedPayment['decoded']
  input: unknown
  ignored: string[]
  /** The requirements this resource offers (the 402's `accepts`), one per network. */
  accepts: PaymentRequirements[]
}

/** A payment scheme's first door: the second one is its `PaymentHold`. */
export type SchemeAdmit = SchemePlugin['admit']
