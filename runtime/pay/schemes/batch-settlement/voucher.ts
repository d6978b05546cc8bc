import type { Hex } from 'viem'
import { recoverAddress } from 'viem/utils'
import { BATCH_SETTLEMENT } from '../../../chain/addresses'
import { eip712Digest, eip712Domain, recoverDigestNative, word } from '../../fast-recover'
import { keccak256 } from '../../keccak'

/** A channel's immutable configuration (the x402 batch-settlement `ChannelConfig`); its EIP-712 hash is its id. */
export interface ChannelConfig {
  payer: Hex
  payerAuthorizer: Hex
  receiver: Hex
  receiverAuthorizer: Hex
  token: Hex
  withdrawDelay: number
  salt: Hex
}

const enc = new TextEncoder()
const k = (b: Uint8Array) => keccak256(b)
const bytes = (h: string): Uint8Array => Buffer.from(h.startsWith('0x') ? h.slice(2) : h, 'hex')
const toHex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}` as Hex

const CONFIG_TYPEHASH = k(
  enc.encode(
    'ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)',
  ),
)
const VOUCHER_TYPEHASH = k(enc.encode('Voucher(bytes32 channelId,uint128 maxClaimableAmount)'))

const domains = new Map<number, Uint8Array>()
/** The settlement contract's EIP-712 domain separator on a chain (name "x402 Batch Settlement", version "1"). */
function domain(chainId: number): Uint8Array {
  let d = domains.get(chainId)
  if (!d) {
    d = eip712Domain('x402 Batch Settlement', '1', BigInt(chainId), bytes(BATCH_SETTLEMENT))
    domains.set(chainId, d)
  }
  return d
}

const typed = (chainId: number, structHash: Uint8Array) => eip712Digest(domain(chainId), structHash)

const ids = new Map<string, Hex>()
const MAX_IDS = 10_000

/**
 * The channel id: the EIP-712 digest of the config under the settlement contract's domain on `chainId`. Every voucher
 * repeats its channel's config, so the digest is kept per (chain, config as sent): two keccaks saved per paid call.
 */
export function channelIdOf(c: ChannelConfig, chainId: number): Hex {
  const key = `${chainId}|${c.payer}|${c.payerAuthorizer}|${c.receiver}|${c.receiverAuthorizer}|${c.token}|${c.withdrawDelay}|${c.salt}`
  let id = ids.get(key)
  if (id === undefined) {
    if (ids.size >= MAX_IDS) ids.clear()
    ids.set(key, (id = computeChannelId(c, chainId)))
  }
  return id
}

function computeChannelId(c: ChannelConfig, chainId: number): Hex {
  const s = new Uint8Array(32 * 8)
  s.set(CONFIG_TYPEHASH, 0)
  word(bytes(c.payer), s, 32)
  word(bytes(c.payerAuthorizer), s, 64)
  word(bytes(c.receiver), s, 96)
  word(bytes(c.receiverAuthorizer), s, 128)
  word(bytes(c.token), s, 160)
  word(BigInt(c.withdrawDelay), s, 192)
  s.set(bytes(c.salt), 224)
  return toHex(typed(chainId, k(s)))
}

/** The digest a payer (authorizer) signs for a cumulative voucher. */
export function voucherDigest(channelId: Hex, maxClaimableAmount: bigint, chainId: number): Uint8Array {
  const s = new Uint8Array(32 * 3)
  s.set(VOUCHER_TYPEHASH, 0)
  s.set(bytes(channelId), 32)
  word(maxClaimableAmount, s, 64)
  return typed(chainId, k(s))
}

/** Half the secp256k1 group order: a larger `s` is the malleable twin of a valid signature. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

/**
 * A voucher signature the settlement contract accepts in `claim` (OpenZeppelin `ECDSA.tryRecover`): 65 bytes, `v` 27
 * or 28, `s` in the lower half of the order. viem (and the official facilitator's check) would also recover `v` 0/1
 * and high-`s` signatures, but a claim carrying one reverts, so the server must not serve on one.
 */
function assertClaimable(signature: Hex): void {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) throw new Error('a voucher signature is 65 bytes')
  const v = Number.parseInt(signature.slice(130), 16)
  if (v !== 27 && v !== 28) throw new Error('a voucher signature has v 27 or 28')
  if (BigInt(`0x${signature.slice(66, 130)}`) > HALF_N) throw new Error('a voucher signature has a low s')
}

/**
 * The address that signed a voucher (ECDSA, no RPC): native libsecp256k1 when available, else viem. Throws on a
 * signature the contract would refuse (malformed, `v` not 27/28, high `s`). A channel whose `payerAuthorizer` is zero
 * needs the payer's EIP-1271 check instead (RPC).
 */
export async function voucherSigner(
  channelId: Hex,
  maxClaimableAmount: bigint,
  signature: Hex,
  chainId: number,
): Promise<string> {
  assertClaimable(signature)
  const digest = voucherDigest(channelId, maxClaimableAmount, chainId)
  return recoverDigestNative(digest, signature) ?? recoverAddress({ hash: toHex(digest), signature })
}
