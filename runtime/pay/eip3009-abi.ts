import { REASON, type PaymentReason } from './reasons'
/** The fields of an EIP-3009 authorization: the EIP-712 `TransferWithAuthorization` type and the call's first arguments. */
export const TRANSFER_WITH_AUTHORIZATION = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const

/** The EIP-3009 functions of USDC (FiatTokenV2_2) that settlement and reconciliation use. */
export const EIP3009_ABI = [
  {
    type: 'function',
    name: 'transferWithAuthorization',
    stateMutability: 'nonpayable',
    outputs: [],
    inputs: [
      ...TRANSFER_WITH_AUTHORIZATION,
      { name: 'v', type: 'uint8' },
      { name: 'r', type: 'bytes32' },
      { name: 's', type: 'bytes32' },
    ],
  },
  {
    type: 'function',
    name: 'transferWithAuthorization',
    stateMutability: 'nonpayable',
    outputs: [],
    inputs: [...TRANSFER_WITH_AUTHORIZATION, { name: 'signature', type: 'bytes' }],
  },
  {
    type: 'function',
    name: 'authorizationState',
    stateMutability: 'view',
    inputs: [
      { name: 'authorizer', type: 'address' },
      { name: 'nonce', type: 'bytes32' },
    ],
    outputs: [{ type: 'bool' }],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
  {
    type: 'event',
    name: 'Transfer',
    inputs: [
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
] as const

/** Maps a revert message to the x402 reason string the reference facilitator uses. */
export function revertReason(message: string): PaymentReason {
  if (/used or canceled/i.test(message)) return REASON.nonceAlreadyUsed
  if (/not yet valid/i.test(message)) return REASON.validAfter
  if (/expired/i.test(message)) return REASON.validBefore
  if (/exceeds balance/i.test(message)) return REASON.evmInsufficientBalance
  if (/invalid signature/i.test(message)) return REASON.invalidSignature
  if (/blacklisted/i.test(message)) return REASON.blacklisted
  return REASON.simulationFailed
}
