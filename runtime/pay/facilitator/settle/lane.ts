import type { Hex, TransactionSerializableEIP1559 } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { hexToBytes, keccak256, serializeTransaction } from 'viem/utils'
import { keccak_256 } from '@noble/hashes/sha3'
import { addressOfKey, signDigestNative } from '../../fast-recover'
import { eip1559Bytes } from './eip1559'
import type { RawReceipt } from './receipt'

/** One settlement transaction in flight: a payment, or a filler that closes a nonce gap. */
export interface Job {
  lane: Lane
  nonce: number
  to: `0x${string}`
  data: `0x${string}`
  gas: bigint
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  /** Every signed version (a fee bump or a new nonce makes a new hash); any one mined settles the job. */
  hashes: `0x${string}`[]
  sentAt: number
  sentBlock: number
  /** Re-sends so far (fee bumps, new nonces, fresh fees): bounded. */
  tries: number
  receipt?: RawReceipt
  resolve(r: RawReceipt): void
  reject(e: Error): void
  /** A 0-value self-transfer that only closes a nonce gap (no payment rides on it). */
  filler?: boolean
  /** Called with each new hash while the caller still waits. */
  onHash?(hash: `0x${string}`): void
}

/**
 * A settler key's nonce lane. Nonces are handed out from a local counter (`take()` is synchronous: the only
 * serialized step of a settlement, and it does no I/O). `jobs` holds every transaction of this key not yet mined.
 */
export class Lane {
  next = -1
  readonly jobs = new Map<number, Job>()
  /** Native balance (wei): read at boot and every minute, lowered by each receipt's gas cost in between. */
  balance = 0n
  /** Set while the counter is being (re)read from the chain; callers wait for it before taking a nonce. */
  syncing: Promise<void> | null = null

  readonly address: Hex
  private signer: Promise<PrivateKeyAccount> | null = null

  /** The key's address is computed natively at once; viem's account (its accounts module, its curve tables) on the first signature. */
  constructor(private readonly key: Hex) {
    this.address = addressOfKey(key)
  }

  /**
   * The raw signed transaction, as viem's `account.signTransaction` makes it (same bytes: RFC 6979 is
   * deterministic), signed with native libsecp256k1: viem's pure-JS signature was ~15 % of the server's CPU per
   * `exact` paid call under load (docs/benchmarks.md §3b). viem's account signs when the native module is missing.
   */
  async signTransaction(tx: TransactionSerializableEIP1559): Promise<Hex> {
    return (await this.signed(tx)).raw
  }

  /**
   * The raw signed transaction and its hash. With the native module the bytes are written by hand (./eip1559.ts)
   * and hashed as bytes, not as hex: 239 µs of CPU per transaction against 270 µs (the two keccaks and the native
   * signature are the rest).
   */
  async signed(tx: TransactionSerializableEIP1559): Promise<{ raw: Hex; hash: Hex }> {
    const unsigned = eip1559Bytes(tx)
    const digest = unsigned ? keccak_256(unsigned) : hexToBytes(keccak256(serializeTransaction(tx)))
    const signature = signDigestNative(digest, this.key)
    if (signature) {
      const bytes = unsigned && eip1559Bytes(tx, signature)
      if (bytes)
        return {
          raw: `0x${Buffer.from(bytes).toString('hex')}`,
          hash: `0x${Buffer.from(keccak_256(bytes)).toString('hex')}`,
        }
      const raw = serializeTransaction(tx, signature)
      return { raw, hash: keccak256(raw) }
    }
    const raw = await (await this.account()).signTransaction(tx)
    return { raw, hash: keccak256(raw) }
  }

  /** The key's viem account (signs when the native module is missing). */
  account(): Promise<PrivateKeyAccount> {
    this.signer ??= import('viem/accounts').then((m) => m.privateKeyToAccount(this.key))
    return this.signer
  }

  take(): number {
    if (this.next < 0) throw new Error('settler nonce lane not initialised')
    return this.next++
  }

  /** Raises the counter to the chain's pending count (never lowers it: lower nonces in flight are ours). */
  async resync(pendingCount: () => Promise<number>): Promise<void> {
    this.syncing ??= (async () => {
      try {
        const c = await pendingCount()
        if (c > this.next) this.next = c
      } finally {
        this.syncing = null
      }
    })()
    return this.syncing
  }
}
