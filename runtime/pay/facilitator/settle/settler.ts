import type { Hex } from 'viem'
import { concat, keccak256, toHex } from 'viem/utils'
import { FeeCache, bumped } from './fees'
import { Lane, type Job } from './lane'
import { gasCost, type RawReceipt } from './receipt'
import { hexToBig, RpcError, RpcTransportError, type Rpc } from './rpc'
import { recoverStuck } from './recovery'
import { BlockWatcher } from './watcher'

export interface SettlerOptions {
  chainId: number
  keys: Hex[]
  /** Expected block interval (ms): fee-cache age, stuck detection. Base: 2000. */
  blockTimeMs: number
  /** Head polling period of the shared watcher (ms). */
  pollMs: number
  /** A transaction not mined after this many blocks (or blockTimeMs × this) is re-sent with a bumped fee. */
  stuckBlocks: number
}

/** A send error that means: this nonce is already taken on chain. */
const NONCE_LOW = /nonce too low|nonce has already been used|already been used|OldNonce/i
const KNOWN = /already known|already imported|known transaction|AlreadyKnown/i
const UNDERPRICED =
  /underpriced|fee cap less than|less than block base fee|max fee per gas less than|fee too low|FeeCapTooLow/i
const NO_FUNDS = /insufficient funds/i
const NONCE_HIGH = /nonce too high|nonce gap/i
/** Overload or flakiness of the RPC in front of the node: the same transaction is simply sent again. */
const TRANSIENT =
  /rate limit|limit exceeded|too many requests|busy|try again|temporar|internal error|header not found|unavailable/i
const MAX_TRIES = 6

/**
 * The settlement pipeline: one nonce lane per settler key, the least-loaded lane takes each transaction, nonces
 * come from a local counter (the only serialized step, no RPC inside it), fees from a per-block cache, the
 * transaction is signed locally and sent raw. Receipts come back on the send itself when the node supports
 * `eth_sendRawTransactionSync` (EIP-7966), otherwise from one shared block watcher. Stuck transactions are re-sent
 * at the same nonce with a bumped fee; a rejected send resyncs its lane; nonce gaps are filled.
 */
export class Settler {
  readonly lanes: Lane[]
  readonly fees: FeeCache
  readonly watcher: BlockWatcher
  syncSend = false
  private ready: Promise<void> | null = null

  constructor(
    readonly rpc: Rpc,
    private o: SettlerOptions,
  ) {
    if (o.keys.length === 0) throw new Error('at least one settler key is required')
    this.lanes = o.keys.map((k) => new Lane(k))
    this.fees = new FeeCache(rpc, o.blockTimeMs)
    this.watcher = new BlockWatcher(
      rpc,
      this.fees,
      { pollMs: o.pollMs, stuckBlocks: o.stuckBlocks, stuckMs: o.stuckBlocks * o.blockTimeMs },
      (job, r) => this.finish(job, r),
      (jobs) => this.recover(jobs),
    )
  }

  /**
   * A key derived from the first settler key and `label` (keccak256 of both): a stable secret for another role
   * (the channels' receiver authorizer) when the operator sets none. It changes when the first settler key does.
   */
  derivedKey(label: string): Hex {
    return keccak256(concat([this.o.keys[0], toHex(label)]))
  }

  /**
   * Reads every lane's nonce and balance, the first fees, and detects EIP-7966 support (a send of an empty
   * transaction: "method not found" means no support; any decoding error means the method exists); once,
   * concurrently; retried on the next call if it failed. We never pass EIP-7966's optional timeout: anvil 1.7.1
   * rejects it ("invalid type: integer") and waits up to 30 s by itself ("Transaction confirmation timeout"); a
   * transaction still unconfirmed after `stuckBlocks` blocks is handed to the watcher meanwhile.
   */
  init(): Promise<void> {
    this.ready ??= (async () => {
      const [support] = await Promise.all([
        this.rpc('eth_sendRawTransactionSync', ['0x']).then(
          () => true,
          (e) =>
            e instanceof RpcError &&
            e.code !== -32601 &&
            !/not (found|supported|available)|does not exist|unsupported|unknown method/i.test(e.message),
        ),
        ...this.lanes.map(async (l) => {
          l.next = Number(hexToBig(await this.rpc<string>('eth_getTransactionCount', [l.address, 'pending'])))
        }),
        this.fees.get(),
        this.readBalances(),
      ])
      this.syncSend = support
    })().catch((e) => {
      this.ready = null
      throw e
    })
    return this.ready
  }

  /** Gas a lane must hold to be offered a transaction of `gas` at current fees. */
  private needed(gas: bigint, maxFee: bigint) {
    return gas * maxFee
  }

  /** The least-loaded lane that can pay for `gas`; null when none can. */
  pick(gas: bigint, maxFee: bigint): Lane | null {
    let best: Lane | null = null
    for (const l of this.lanes) {
      if (l.balance < this.needed(gas, maxFee)) continue
      if (!best || l.jobs.size < best.jobs.size) best = l
    }
    return best
  }

  /**
   * Sends one transaction to `to` and resolves with its receipt (whatever its status). Rejects only when the
   * transaction was never accepted by the node (nothing can be on chain). `onHash` sees each signed version.
   */
  async submit(to: Hex, data: Hex, gas: bigint, onHash?: (h: Hex) => void): Promise<RawReceipt> {
    await this.init()
    const fees = await this.fees.get()
    const lane = this.pick(gas, fees.maxFeePerGas)
    if (!lane) throw new Error('no settler key can pay for gas')
    if (lane.syncing) await lane.syncing
    return new Promise<RawReceipt>((resolve, reject) => {
      const job: Job = {
        lane,
        nonce: lane.take(),
        to,
        data,
        gas,
        fees: { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
        hashes: [],
        sentAt: 0,
        sentBlock: -1,
        tries: 0,
        resolve,
        reject,
        onHash,
      }
      lane.jobs.set(job.nonce, job)
      void this.send(job, this.syncSend)
    })
  }

  private async sign(job: Job): Promise<Hex> {
    const { raw, hash } = await job.lane.signed({
      type: 'eip1559',
      chainId: this.o.chainId,
      nonce: job.nonce,
      to: job.to,
      data: job.data,
      gas: job.gas,
      value: 0n,
      maxFeePerGas: job.fees.maxFeePerGas,
      maxPriorityFeePerGas: job.fees.maxPriorityFeePerGas,
    })
    job.hashes.push(hash)
    job.sentAt = Date.now()
    job.sentBlock = this.watcher.head
    job.onHash?.(hash)
    return raw
  }

  /** Signs and sends `job` as it stands (nonce, fees); every outcome ends in a receipt, a retry, tracking or reject. */
  /** @internal (recovery.ts) */
  async send(job: Job, sync: boolean): Promise<void> {
    let raw: Hex
    try {
      raw = await this.sign(job)
    } catch (e) {
      return this.drop(job, e as Error)
    }
    try {
      if (sync) {
        // If the node keeps the call open past the stuck period, the watcher takes over recovery meanwhile.
        const t = setTimeout(() => this.watcher.track(job), this.o.stuckBlocks * this.o.blockTimeMs)
        try {
          const r = await this.rpc<RawReceipt>('eth_sendRawTransactionSync', [raw], 120_000)
          this.finish(job, r)
        } finally {
          clearTimeout(t)
        }
      } else {
        await this.rpc('eth_sendRawTransaction', [raw])
        this.watcher.track(job)
      }
    } catch (e) {
      await this.rejected(job, e as Error)
    }
  }

  /** A send failed: decide from the error what is on chain and what to do next. Never loses the job. */
  private async rejected(job: Job, e: Error): Promise<void> {
    if (job.receipt) return
    const msg = e.message
    if (e instanceof RpcTransportError || !(e instanceof RpcError) || KNOWN.test(msg) || /timeout/i.test(msg)) {
      this.watcher.track(job) // maybe accepted: the watcher finds the receipt or re-sends it when stuck
      return
    }
    if (++job.tries > MAX_TRIES) return job.hashes.length > 1 ? this.watcher.track(job) : this.drop(job, e)
    const lane = job.lane
    if (job.filler && NONCE_LOW.test(msg)) return this.drop(job, e) // the gap closed by itself
    if (TRANSIENT.test(msg)) {
      await new Promise((r) => setTimeout(r, 100 * job.tries))
      return this.send(job, false)
    }
    if (NONCE_LOW.test(msg)) {
      if (job.hashes.length > 1) return this.watcher.track(job) // an earlier version of ours may hold the nonce
      await lane.resync(() => this.count(lane.address, 'pending')).catch(() => {})
      return this.renonce(job)
    }
    if (UNDERPRICED.test(msg)) {
      job.fees = bumped(job.fees, await this.fees.get(true).catch(() => ({ ...job.fees, baseFee: 0n })))
      return this.send(job, false)
    }
    if (NONCE_HIGH.test(msg)) {
      this.watcher.track(job)
      return this.recover([job])
    }
    if (NO_FUNDS.test(msg)) lane.balance = 0n // not offered new work until the next balance read
    // The node refused this transaction outright: nothing of it is on chain. Its nonce is now a gap, filled by
    // recovery when the next transaction of this lane stalls.
    if (job.hashes.length > 1) return this.watcher.track(job)
    return this.drop(job, e)
  }

  /** Moves a job to a fresh nonce of its lane (its old nonce is taken on chain). @internal (recovery.ts) */
  renonce(job: Job): Promise<void> {
    job.lane.jobs.delete(job.nonce)
    job.nonce = job.lane.take()
    job.lane.jobs.set(job.nonce, job)
    return this.send(job, false)
  }

  private drop(job: Job, e: Error): void {
    if (job.lane.jobs.get(job.nonce) === job) job.lane.jobs.delete(job.nonce)
    this.watcher.untrack(job)
    job.reject(e)
  }

  /** @internal (recovery.ts) */
  finish(job: Job, r: RawReceipt): void {
    if (job.receipt) return
    job.receipt = r
    this.watcher.untrack(job)
    if (job.lane.jobs.get(job.nonce) === job) job.lane.jobs.delete(job.nonce)
    const cost = gasCost(r)
    job.lane.balance = job.lane.balance > cost ? job.lane.balance - cost : 0n
    const block = Number(hexToBig(r.blockNumber))
    this.fees.observeBlock(block)
    if (block > this.watcher.head) this.watcher.head = block
    job.resolve(r)
  }

  /** @internal (recovery.ts) */
  async count(address: string, tag: 'latest' | 'pending'): Promise<number> {
    return Number(hexToBig(await this.rpc<string>('eth_getTransactionCount', [address, tag])))
  }

  /** Stuck transactions: see recovery.ts. */
  private recover(stuck: Job[]): Promise<void> {
    return recoverStuck(this, stuck)
  }

  /** Reads every lane's balance (boot and every minute). */
  async readBalances(): Promise<void> {
    await Promise.all(
      this.lanes.map(async (l) => {
        l.balance = hexToBig(await this.rpc<string>('eth_getBalance', [l.address, 'latest']))
      }),
    )
  }

  close(): void {
    this.watcher.close()
  }
}
