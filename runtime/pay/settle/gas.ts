/**
 * Gas limit for transferWithAuthorization on FiatTokenV2_2 paid by an EOA signature (65 bytes), used instead of
 * an eth_estimateGas per settlement. Measured on the dev chain (test/settle/gas.test.ts): the worst case is a
 * first payment to an empty payee, with a fresh authorization nonce and the payer's balance slot cold:
 * ~86k gas for the (v, r, s) variant and ~88k for the bytes variant. The bound leaves ~35 % headroom for
 * calldata pricing and gas-schedule changes; unused gas is not charged.
 * Contract-wallet signatures (EIP-1271: the cost depends on the wallet) are estimated per settlement instead.
 */
export const TRANSFER_WITH_AUTHORIZATION_GAS = 120_000n
/** Margin on an eth_estimateGas result for contract-wallet payments. */
export const ESTIMATE_MARGIN_PCT = 130n
