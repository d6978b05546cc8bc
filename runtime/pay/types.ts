/** x402 v2 PaymentRequirements for the `exact` scheme on EVM (EIP-3009). */
export interface PaymentRequirements {
  scheme: 'exact'
  network: string
  amount: string
  asset: string
  payTo: string
  maxTimeoutSeconds: number
  extra: { name: string; version: string; [k: string]: unknown }
}

export interface Authorization {
  from: `0x${string}`
  to: `0x${string}`
  value: string
  validAfter: string
  validBefore: string
  nonce: `0x${string}`
}

export interface ExactPayload {
  signature: `0x${string}`
  authorization: Authorization
}

/** A decoded payment header, normalised across v1 (X-PAYMENT) and v2 (PAYMENT-SIGNATURE). */
export interface DecodedPayment {
  x402Version: 1 | 2
  /** The client's echo of the requirements (v2 only). */
  accepted?: Record<string, unknown>
  scheme: string
  network: string
  payload: ExactPayload
  /** The raw decoded JSON, forwarded as is to a remote facilitator. */
  raw: Record<string, unknown>
}

export interface VerifyResult {
  isValid: boolean
  invalidReason?: string
  payer?: string
}

export interface SettleResult {
  success: boolean
  transaction: string
  network: string
  payer?: string
  errorReason?: string
  /** Sent but not confirmed in time: the ledger keeps it pending and reconciles it later. */
  pending?: boolean
  /** Why, in words, for the ledger's reason (never sent to the client). */
  note?: string
  /** Pending, but the facilitator cleanly refused it: the payer is cooled down as after a failed settlement. */
  refused?: boolean
  /** Gas used by the settlement transaction (decimal string), when known. */
  gasUsed?: string
  /** Effective gas price of the settlement transaction in wei (decimal string), when known. */
  effectiveGasPrice?: string
}

/** The state of the settlement side, for /health and for refusing paid calls that could not be settled. */
/**
 * What the chain says of a payment: settled (with the transaction whose logs prove it paid us: the one recorded, or
 * the one found by the authorization's logs), failed, or unknown.
 */
export type ChainStatus = { state: 'settled'; tx: string } | { state: 'failed' | 'unknown'; tx?: string }

export interface FacilitatorHealth {
  /** False when the backend cannot be reached, or (local settlement) a settler key is running low on gas. */
  ok: boolean
  /** False when no settlement could be paid for (e.g. every settler is out of gas): paid calls answer 503. */
  canPay: boolean
  detail?: string
  settlers?: Array<{ address: string; balance_wei: string; settlements_left: number; in_flight: number }>
  /** Remote facilitators in the order tried, with their circuit-breaker state. */
  facilitators?: Array<{
    url: string
    state: 'closed' | 'open' | 'half-open'
    consecutive_failures: number
    retry_in_seconds?: number
    last_error?: string
  }>
  /** With several networks (NETWORKS): each network's own backend state. */
  networks?: Record<string, FacilitatorHealth>
}

/** Verifies and settles payments against OUR requirements, on a chain or through a facilitator. */
export interface Facilitator {
  readonly kind: 'local' | 'remote'
  /** On-chain (or remote) verification; cheap checks have already passed. */
  verify(p: DecodedPayment, req: PaymentRequirements): Promise<VerifyResult>
  /** Broadcasts the transfer. `onSubmitted` is called with the tx hash before waiting for the receipt. */
  settle(p: DecodedPayment, req: PaymentRequirements, onSubmitted: (tx: string) => void): Promise<SettleResult>
  /**
   * Settlement status of a payment from the chain, for reconciliation (with the transaction that settled it).
   * `receivedAtMs`: when we first received the payment (the ledger row's created_at); it narrows the search for the
   * authorization's use to the blocks mined since.
   */
  status(tx: string, p: DecodedPayment, req: PaymentRequirements, receivedAtMs?: number): Promise<ChainStatus>
  /** The payer's balance of `asset` (atomic units), where the backend can read the chain. */
  balance?(payer: `0x${string}`, asset: string): Promise<bigint>
  /** Whether `address` has contract code (cached): lets the cheap checks defer a contract wallet's signature to the chain. */
  hasCode?(address: string): Promise<boolean>
  /** Current health of the settlement side. */
  health?(): FacilitatorHealth
  /** Stops timers and watchers. */
  close?(): Promise<void>
}
