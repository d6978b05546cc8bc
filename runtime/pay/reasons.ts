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
  /** The authorization's handler ran and failed MAX_FAILED_RUNS times (runtime/pay/schemes/exact/gate.ts): sign a new one. */
  failedRunsExhausted: 'authorization_failed_runs_exhausted',
  // The batch-settlement (payment channel) scheme: the spec's `invalid_batch_settlement_evm_*` codes
  channelPayload: 'invalid_batch_settlement_evm_payload_type',
  channelNetworkMismatch: 'invalid_batch_settlement_evm_network_mismatch',
  channelIdMismatch: 'invalid_batch_settlement_evm_channel_id_mismatch',
  channelReceiverMismatch: 'invalid_batch_settlement_evm_receiver_mismatch',
  channelReceiverAuthorizerMismatch: 'invalid_batch_settlement_evm_receiver_authorizer_mismatch',
  channelTokenMismatch: 'invalid_batch_settlement_evm_token_mismatch',
  channelWithdrawDelayMismatch: 'invalid_batch_settlement_evm_withdraw_delay_mismatch',
  channelWithdrawDelayOutOfRange: 'invalid_batch_settlement_evm_withdraw_delay_out_of_range',
  channelVoucherSignature: 'invalid_batch_settlement_evm_voucher_signature',
  channelCumulativeMismatch: 'invalid_batch_settlement_evm_cumulative_amount_mismatch',
  channelExceedsBalance: 'invalid_batch_settlement_evm_cumulative_exceeds_balance',
  channelBelowClaimed: 'invalid_batch_settlement_evm_cumulative_below_claimed',
  channelBusy: 'invalid_batch_settlement_evm_channel_busy',
  channelDepositBelowMin: 'invalid_batch_settlement_evm_deposit_below_min_deposit',
  channelMissing: 'invalid_batch_settlement_evm_missing_channel',
  channelRefundNoBalance: 'invalid_batch_settlement_evm_refund_no_balance',
  channelNothingToSettle: 'invalid_batch_settlement_evm_nothing_to_settle',
  /**
   * This server's own (docs/channels.md "Sponsored gas"): a payer whose last refunded channel bought nothing gets no
   * sponsored deposit, nor a sponsored refund of another channel that bought nothing (its timed withdrawal stays open).
   */
  channelNotSponsored: 'channel_not_sponsored',
} as const

export type PaymentReason = (typeof REASON)[keyof typeof REASON]
