import { createRequire } from 'node:module'
import { secp256k1 } from '@noble/curves/secp256k1'
import { keccak256 } from './keccak'
import type { Authorization, PaymentRequirements } from './types'

/** The native libsecp256k1 binding (prebuilt in the `secp256k1` package), or null when it cannot load. */
type Native = {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array
  publicKeyCreate(key: Uint8Array, compressed: boolean): Uint8Array
  ecdsaSign(msg32: Uint8Array, key: Uint8Array): { signature: Uint8Array; recid: number }
}
function loadNative(): Native | null {
  try {
    const req = createRequire(import.meta.url)
    const n = req('secp256k1/bindings') as Native
    return typeof n.ecdsaRecover === 'function' ? n : null
  } catch {
    return null
  }
}
let loaded: Native | null | undefined
/**
 * The binding, loaded on its first use: creating its context builds libsecp256k1's tables (~30 ms of CPU, 9 % of a
 * self-settling boot, issue #38), which only a payment's recovery or a transaction's signature needs.
 */
function native(): Native | null {
  if (loaded === undefined) loaded = process.env.X402_PURE_JS === '1' ? null : loadNative()
  return loaded
}
/** Whether recovery and signatures run on native libsecp256k1 (loads the binding). */
export const nativeRecovery = (): boolean => native() !== null

const enc = new TextEncoder()
const k = (b: Uint8Array) => keccak256(b)
/** The bytes of a hex string, in their own buffer (not Buffer's shared pool); the typed-array copy, not `Uint8Array.from`'s
 * element-by-element iteration (~4 µs for a signature's 65 bytes against ~0.5). */
const hex = (h: string) => new Uint8Array(Buffer.from(h.startsWith('0x') ? h.slice(2) : h, 'hex'))
const DOMAIN_TYPEHASH = k(
  enc.encode('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
)
const TWA_TYPEHASH = k(
  enc.encode(
    'TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)',
  ),
)

/** Writes a value right-aligned in the 32-byte ABI word at `at` (EIP-712 struct encoding). */
export function word(v: bigint | Uint8Array, out: Uint8Array, at: number): void {
  if (v instanceof Uint8Array) {
    out.set(v, at + 32 - v.length)
    return
  }
  for (let i = 31; i >= 0 && v > 0n; i--, v >>= 8n) out[at + i] = Number(v & 0xffn)
}

const domains = new Map<string, Uint8Array>()
/** EIP-712 domain separator of the asset, computed once per (name, version, chain, contract). */
function domainSeparator(req: PaymentRequirements): Uint8Array {
  const key = `${req.extra.name}|${req.extra.version}|${req.network}|${req.asset.toLowerCase()}`
  let d = domains.get(key)
  if (!d) {
    d = eip712Domain(req.extra.name, req.extra.version, BigInt(req.network.split(':')[1]), hex(req.asset))
    domains.set(key, d)
  }
  return d
}

/** The EIP-712 domain separator of (name, version, chainId, verifyingContract). */
export function eip712Domain(name: string, version: string, chainId: bigint, contract: Uint8Array): Uint8Array {
  const buf = new Uint8Array(32 * 5)
  buf.set(DOMAIN_TYPEHASH, 0)
  buf.set(k(enc.encode(name)), 32)
  buf.set(k(enc.encode(version)), 64)
  word(chainId, buf, 96)
  word(contract, buf, 128)
  return k(buf)
}

/** The EIP-712 digest of a struct hash under a domain separator: keccak256(0x1901 ‖ domain ‖ structHash). */
export function eip712Digest(domain: Uint8Array, structHash: Uint8Array): Uint8Array {
  const m = new Uint8Array(66)
  m[0] = 0x19
  m[1] = 0x01
  m.set(domain, 2)
  m.set(structHash, 34)
  return k(m)
}

/** The EIP-712 digest a payer signs for an EIP-3009 TransferWithAuthorization. */
export function authorizationDigest(a: Authorization, req: PaymentRequirements): Uint8Array {
  const s = new Uint8Array(32 * 7)
  s.set(TWA_TYPEHASH, 0)
  word(hex(a.from), s, 32)
  word(hex(a.to), s, 64)
  word(BigInt(a.value), s, 96)
  word(BigInt(a.validAfter), s, 128)
  word(BigInt(a.validBefore), s, 160)
  s.set(hex(a.nonce), 192)
  return eip712Digest(domainSeparator(req), k(s))
}

/**
 * Recovers the signer of a 65-byte signature with native libsecp256k1 (about 10x the pure-JS path).
 * Returns null when the native module is unavailable (the caller then uses viem). Throws on a malformed signature.
 */
export function recoverNative(a: Authorization, signature: `0x${string}`, req: PaymentRequirements): string | null {
  return native() ? recoverDigestNative(authorizationDigest(a, req), signature) : null
}

/** The address that signed a 32-byte digest (65-byte signature, v 0/1/27/28) with native libsecp256k1; null without it. */
export function recoverDigestNative(digest: Uint8Array, signature: `0x${string}`): string | null {
  const n = native()
  if (!n) return null
  const sig = hex(signature)
  if (sig.length !== 65) throw new Error('signature must be 65 bytes')
  const v = sig[64]
  const recid = v >= 27 ? v - 27 : v
  if (recid !== 0 && recid !== 1) throw new Error('bad recovery id')
  const pub = n.ecdsaRecover(sig.subarray(0, 64), recid, digest, false)
  return addressOfPublicKey(pub)
}

const addresses = new Map<string, string>()
const MAX_ADDRESSES = 10_000

/**
 * The address of an uncompressed public key (65 bytes): keccak256 of its 64 coordinate bytes, kept per key (a payer
 * signs many vouchers and authorizations with one key: one keccak saved per recovery; the map is bounded).
 */
function addressOfPublicKey(pub: Uint8Array): string {
  const key = Buffer.from(pub.buffer, pub.byteOffset + 1, 64).toString('latin1')
  let a = addresses.get(key)
  if (a === undefined) {
    if (addresses.size >= MAX_ADDRESSES) addresses.clear()
    a = `0x${Buffer.from(k(pub.subarray(1)).subarray(12)).toString('hex')}`
    addresses.set(key, a)
  }
  return a
}

/**
 * The checksummed (EIP-55) address of a private key, as viem's `privateKeyToAccount(key).address`, without viem's
 * account (its first use builds @noble/curves' precomputed tables, several ms) nor the native binding (~30 ms to
 * create): one plain double-and-add from a copy of the generator, which carries no precomputed tables (~5 ms),
 * on @noble/curves, which viem's utilities load at boot anyway. Boot derives the settler's and the channel
 * authorizer's addresses this way. Not constant-time: it runs once per configured key, at boot, where no caller can
 * time it.
 */
export function addressOfKey(key: `0x${string}`): `0x${string}` {
  const priv = hex(key)
  if (priv.length !== 32) throw new Error('private key must be 32 bytes')
  const d = secp256k1.utils.normPrivateKeyToScalar(priv) // throws outside 1..n-1
  const P = secp256k1.ProjectivePoint
  const pub = new P(P.BASE.px, P.BASE.py, P.BASE.pz).multiplyUnsafe(d).toRawBytes(false)
  const lower = Buffer.from(k(pub.subarray(1)).subarray(12)).toString('hex')
  const h = k(enc.encode(lower))
  let out = '0x'
  for (let i = 0; i < 40; i++) out += ((h[i >> 1]! >> (i % 2 ? 0 : 4)) & 15) >= 8 ? lower[i]!.toUpperCase() : lower[i]
  return out as `0x${string}`
}

/**
 * Signs a 32-byte digest with native libsecp256k1 (RFC 6979 nonce, low `s`: the very signature viem's `sign` makes
 * with @noble/curves, at a small part of its CPU); null without the native module (the caller then uses viem).
 */
export function signDigestNative(
  digest: Uint8Array,
  key: `0x${string}`,
): { r: `0x${string}`; s: `0x${string}`; yParity: 0 | 1 } | null {
  const n = native()
  if (!n) return null
  const { signature, recid } = n.ecdsaSign(digest, hex(key))
  const h = Buffer.from(signature).toString('hex')
  return { r: `0x${h.slice(0, 64)}`, s: `0x${h.slice(64)}`, yParity: recid === 1 ? 1 : 0 }
}
