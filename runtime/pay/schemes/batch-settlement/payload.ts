import type { Hex } from 'viem'
import type { StoredChannelConfig } from '../../../db/store'

/** A batch-settlement payment payload, checked for shape (`@x402/evm` types: deposit, voucher, refund). */
export type ChannelPayload =
  | { type: 'voucher'; config: StoredChannelConfig; voucher: Voucher }
  | { type: 'deposit'; config: StoredChannelConfig; voucher: Voucher; depositAmount: bigint }
  | { type: 'refund'; config: StoredChannelConfig; voucher: Voucher; amount?: bigint }

export interface Voucher {
  channelId: Hex
  maxClaimableAmount: bigint
  signature: Hex
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const BYTES32 = /^0x[0-9a-fA-F]{64}$/
/** An ECDSA signature is 65 bytes; EIP-1271 and ERC-6492 wrapped ones are longer, never beyond this. */
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){1,4096}$/
const UINT = /^\d{1,39}$/
const U128_MAX = (1n << 128n) - 1n
export const MIN_WITHDRAW_DELAY = 900
export const MAX_WITHDRAW_DELAY = 2_592_000

const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null

function u128(v: unknown): bigint | null {
  if (typeof v !== 'string' || !UINT.test(v)) return null
  const n = BigInt(v)
  return n <= U128_MAX ? n : null
}

function config(v: unknown): StoredChannelConfig | null {
  const c = obj(v)
  if (!c) return null
  for (const k of ['payer', 'payerAuthorizer', 'receiver', 'receiverAuthorizer', 'token'] as const)
    if (typeof c[k] !== 'string' || !ADDRESS.test(c[k] as string)) return null
  if (typeof c.salt !== 'string' || !BYTES32.test(c.salt)) return null
  if (typeof c.withdrawDelay !== 'number' || !Number.isInteger(c.withdrawDelay) || c.withdrawDelay < 0) return null
  return {
    payer: c.payer as Hex,
    payerAuthorizer: c.payerAuthorizer as Hex,
    receiver: c.receiver as Hex,
    receiverAuthorizer: c.receiverAuthorizer as Hex,
    token: c.token as Hex,
    withdrawDelay: c.withdrawDelay,
    salt: c.salt as Hex,
  }
}

function voucher(v: unknown): Voucher | null {
  const o = obj(v)
  const max = u128(o?.maxClaimableAmount)
  if (!o || max === null) return null
  if (typeof o.channelId !== 'string' || !BYTES32.test(o.channelId)) return null
  if (typeof o.signature !== 'string' || !SIGNATURE.test(o.signature)) return null
  return { channelId: o.channelId.toLowerCase() as Hex, maxClaimableAmount: max, signature: o.signature as Hex }
}

/** The payload's inner `payload` as a channel payload, or null when its shape is not one. */
export function parseChannelPayload(raw: unknown): ChannelPayload | null {
  const p = obj(raw)
  if (!p) return null
  const c = config(p.channelConfig)
  const v = voucher(p.voucher)
  if (!c || !v) return null
  if (p.type === 'voucher') return { type: 'voucher', config: c, voucher: v }
  if (p.type === 'deposit') {
    const d = obj(p.deposit)
    const amount = u128(d?.amount)
    if (!d || amount === null || amount === 0n || !obj(d.authorization)) return null
    return { type: 'deposit', config: c, voucher: v, depositAmount: amount }
  }
  if (p.type === 'refund') {
    if (p.amount === undefined) return { type: 'refund', config: c, voucher: v }
    const amount = u128(p.amount)
    return amount === null || amount === 0n ? null : { type: 'refund', config: c, voucher: v, amount }
  }
  return null
}
