/**
 * Gas limit for transferWithAuthorization on FiatTokenV2_2 paid by an EOA signature (65 bytes), used instead of
 * an eth_estimateGas per settlement. Measured on the dev chain (test/settle/gas-health.test.ts, Circle's real
 * bytecode): the worst case is a first payment to an empty payee with a fresh authorization nonce —
 * ~95,600 gas with (v, r, s), ~96,000 with the bytes-signature variant; ~78,500 to a payee that already holds
 * USDC. The bound leaves 25 % headroom over the worst case for calldata repricing and gas-schedule changes;
 * unused gas is not charged (the settler only needs the balance to cover the limit × maxFeePerGas).
 * Contract-wallet signatures (EIP-1271: the cost depends on the wallet) are estimated per settlement instead.
 */
export const TRANSFER_WITH_AUTHORIZATION_GAS = 120_000n
/** Margin on an eth_estimateGas result for contract-wallet payments. */
export const ESTIMATE_MARGIN_PCT = 130n
