/**
 * Every x402 reason string this server sends (`invalidReason` / `errorReason` / the 402 `error` field) or reads
 * from a facilitator, in one place. Names follow the x402 v2 spec and the official facilitator where one exists
 * (`invalid_exact_evm_*`); the rest are this server's own. A facilitator may answer other strings: those are passed
 * through as they came, never matched against a literal elsewhere.
 */
export const REASON = {
  // Decoding the payment header
  invalidPayload: 'invalid_payload',
  unsupportedScheme: 'unsupported_scheme',
  invalidNetwork: 'invalid_network',
  noMatchingRequirements: 'no_matching_requirements',
  // The exact-EVM authorization
  recipientMismatch: 'invalid_exact_evm_recipient_mismatch',
  valueMismatch: 'invalid_exact_evm_payload_authorization_value_mismatch',
  validBefore: 'invalid_exact_evm_payload_authorization_valid_before',
  validAfter: 'invalid_exact_evm_payload_authorization_valid_after',
  invalidSignature: 'invalid_exact_evm_signature',
  nonceAlreadyUsed: 'invalid_exact_evm_nonce_already_used',
  evmInsufficientBalance: 'invalid_exact_evm_insufficient_balance',
  blacklisted: 'invalid_exact_evm_blacklisted',
  simulationFailed: 'invalid_exact_evm_transaction_simulation_failed',
  transactionFailed: 'invalid_exact_evm_transaction_failed',
  transferEventMismatch: 'invalid_exact_evm_transfer_event_mismatch',
  // This server's gate
  invalidPayment: 'invalid_payment',
  authorizationAlreadyUsed: 'authorization_already_used',
  insufficientBalance: 'insufficient_balance',
  payerCoolingDown: 'payer_cooling_down',
  settlementPending: 'settlement_pending',
  /** The authorization's handler ran and failed MAX_FAILED_RUNS times (runtime/pay/server/gate.ts): sign a new one. */
  failedRunsExhausted: 'authorization_failed_runs_exhausted',
} as const

export type PaymentReason = (typeof REASON)[keyof typeof REASON]
