import type { PaymentRequirements } from '@x402/core/types'
import type { Hex } from 'viem'
import type { Config } from '../../../config'
import type { Channel, ChannelStore } from '../../../db/store'
import { usdToAtomic } from '../../../catalog/amount'
import { REASON } from '../../reasons'
import type { Rpc } from '../../facilitator/settle/rpc'
import { readChannels } from './chain-state'
import { minedReceipt, sweptByEvent, unsweptOnChain } from './chain-proof'
import type { ChannelFacilitator } from './facilitator'

/**
 * When channels are claimed and claimed funds swept (docs/channels.md explains the defaults). A channel is claimed
 * when its payer's unclaimed charges (over the payer's channels on the network) reach `claimThreshold`, when its oldest unclaimed charge has waited `claimIntervalMs`,
 * when its payer has started a timed withdrawal, and at shutdown; claimed funds are swept to PAY_TO when they reach
 * `sweepThreshold`, when they have waited `sweepIntervalMs`, and at shutdown.
 */
export interface ClaimPolicy {
  claimThreshold: bigint
  claimIntervalMs: number
  /** Channels per claim transaction. */
  maxClaimsPerBatch: number
  sweepThreshold: bigint
  sweepIntervalMs: number
  /** How often the on-chain state (pending withdrawals, balances) of channels with escrow left is read (ms). */
  watchIntervalMs: number
  /** Wait after a failed claim or sweep before trying it again (ms; doubles with each failure, up to 32x). */
  retryMs: number
  /** How long a claim's receipt is waited for before the claim is booked (ms; x402 #2471). */
  receiptWaitMs: number
}

/** USDC has 6 decimals: 1,000,000 atomic units are one dollar. */
export const DEFAULT_POLICY: ClaimPolicy = {
  claimThreshold: 250_000n,
  claimIntervalMs: 3_600_000,
  maxClaimsPerBatch: 25,
  sweepThreshold: 1_000_000n,
  sweepIntervalMs: 86_400_000,
  watchIntervalMs: 60_000,
  retryMs: 5_000,
  receiptWaitMs: 10_000,
}

/**
 * The operator's settings: the claim interval (CHANNEL_CLAIM_INTERVAL_S), the per-payer claim threshold
 * (CHANNEL_CLAIM_THRESHOLD_USD) and the minimum deposit (atomic units).
 */
export function channelSettings(config: Pick<Config, 'channels'>): {
  policy: Partial<ClaimPolicy>
  minDeposit: bigint
} {
  return {
    policy: {
      claimIntervalMs: config.channels.claimIntervalS * 1000,
      claimThreshold: BigInt(usdToAtomic(config.channels.claimThresholdUsd)),
    },
    minDeposit: BigInt(usdToAtomic(config.channels.minDepositUsd)),
  }
}

export interface ClaimerOptions {
  store: ChannelStore
  facilitator: ChannelFacilitator
  /**
   * Reads of the chain (the watch of pending withdrawals). Without it (a remote facilitator and no RPC URL for the
   * network) there is no watch: a withdrawal is caught by the claim interval only (docs/channels.md).
   */
  rpc?: Rpc
  /** The batch-settlement requirements of this network (payTo = the receiver swept to, asset = the token). */
  requirements: PaymentRequirements
  policy?: Partial<ClaimPolicy>
  gasOf?: (tx: string) => Promise<{ gasUsed?: bigint; gasPrice?: bigint }>
  /**
   * Shared databases: runs a round only when no other instance is running one (LedgerStore.exclusively). Required
   * with several instances: two engines at once would send the same claims twice (no-ops on chain, gas wasted) and
   * could both record the reconciliation of one lost sweep.
   */
  exclusively?: <T>(name: string, fn: () => Promise<T>) => Promise<T | undefined>
  log?: { warn(msg: string, extra?: Record<string, unknown>): void }
  now?: () => number
}

/** What one round did. */
export interface RoundResult {
  claims: Array<{ tx: string; channels: number; amount: bigint }>
  sweeps: Array<{ tx: string; amount: bigint }>
  failures: number
}

/**
 * The claim and sweep engine of one network: rounds (every second by default, or `round()` directly) watch pending
 * withdrawals, claim due channels in batches and sweep, all through the official facilitator and this server's
 * settlement pipeline. A failed claim or sweep leaves its rows due and is tried again (with a growing wait) until
 * the funds reach PAY_TO; a batch that fails is split so one bad channel cannot hold up the others.
 */
export class ChannelClaimer {
  readonly policy: ClaimPolicy
  private timer: ReturnType<typeof setInterval> | null = null
  private running: Promise<unknown> | null = null
  private lastWatch = 0
  private startedAt: number
  /** Channel id → earliest retry (ms), and the failure count, after a claim of that channel alone failed. */
  private backoff = new Map<string, { until: number; fails: number }>()
  private sweepBackoff = { until: 0, fails: 0 }

  constructor(private o: ClaimerOptions) {
    this.policy = { ...DEFAULT_POLICY, ...o.policy }
    this.startedAt = this.now()
  }

  private now = () => (this.o.now ?? Date.now)()
  private get network() {
    return this.o.requirements.network
  }

  start(everyMs = 1000): void {
    if (this.timer) return
    this.timer = setInterval(() => void this.tick(), everyMs)
    this.timer.unref?.()
  }

  /** One round unless one is running (timer ticks never overlap). */
  tick(): Promise<unknown> {
    if (!this.running)
      this.running = this.exclusive(() => this.round()).finally(() => {
        this.running = null
      })
    return this.running
  }

  /** Stops the rounds, then claims every channel with anything unclaimed and sweeps (graceful shutdown). */
  async stop(): Promise<RoundResult> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running?.catch(() => {})
    this.backoff.clear()
    this.sweepBackoff = { until: 0, fails: 0 }
    return (await this.exclusive(() => this.round({ all: true }))) ?? { claims: [], sweeps: [], failures: 0 }
  }

  private async exclusive(fn: () => Promise<RoundResult>): Promise<RoundResult | undefined> {
    try {
      return this.o.exclusively ? await this.o.exclusively(`channel-claimer:${this.network}`, fn) : await fn()
    } catch (e) {
      this.o.log?.warn('channel claim round failed', { error: String((e as Error)?.message ?? e).slice(0, 200) })
      return undefined
    }
  }

  /** Watch (when due), claim what is due, sweep when due. `all`: claim everything unclaimed and sweep anything. */
  async round(o: { all?: boolean; watch?: boolean } = {}): Promise<RoundResult> {
    const out: RoundResult = { claims: [], sweeps: [], failures: 0 }
    if (o.watch || this.now() - this.lastWatch >= this.policy.watchIntervalMs) await this.watch()
    await this.claimDue(out, o.all === true)
    await this.sweepIfDue(out, o.all === true)
    return out
  }

  /**
   * Reads the on-chain state of every channel with escrow left that we have not claimed and mirrors it: a payer's
   * timed withdrawal makes its channel due for a claim at once (and stops it paying near its end, doors.ts).
   */
  async watch(): Promise<void> {
    this.lastWatch = this.now()
    const rpc = this.o.rpc
    if (!rpc) return
    const kept = await this.o.store.watched(this.network, 100_000)
    if (!kept.length) return
    const read = await readChannels(
      rpc,
      kept.map((c) => c.id),
      this.now(),
    )
    for (const c of kept) {
      const m = read.get(c.id)
      if (m) await this.o.store.mirror(c.id, m)
    }
  }

  private async claimDue(out: RoundResult, all: boolean): Promise<void> {
    const p = this.policy
    const skip = new Set<string>()
    for (;;) {
      const now = this.now()
      const due = (
        await this.o.store.dueForClaim(
          this.network,
          { minUnclaimed: p.claimThreshold, chargedBefore: now - p.claimIntervalMs, all },
          p.maxClaimsPerBatch + skip.size,
        )
      ).filter((c) => !skip.has(c.id) && (this.backoff.get(c.id)?.until ?? 0) <= now)
      const batch = due.slice(0, p.maxClaimsPerBatch)
      if (!batch.length) return
      for (const c of batch) skip.add(c.id)
      if (await this.claim(batch, out)) continue
      // split: each channel alone, so one channel that cannot be claimed does not hold up the others
      if (batch.length > 1) for (const c of batch) await this.claim([c], out)
    }
  }

  /** One claim transaction for `rows`; true when it landed and was recorded. */
  private async claim(rows: Channel[], out: RoundResult): Promise<boolean> {
    const claims = rows.map((c) => ({
      voucher: { channel: c.config, maxClaimableAmount: c.signedMax.toString() },
      signature: c.signature,
      totalClaimed: c.charged.toString(),
    }))
    const r = this.o.requirements
    let res: Awaited<ReturnType<ChannelFacilitator['settle']>> | undefined
    try {
      res = await this.o.facilitator.settle(
        { x402Version: 2, accepted: r, payload: { type: 'claim', claims } } as never,
        r,
      )
    } catch (e) {
      res = undefined
      this.o.log?.warn('channel claim threw', { error: String((e as Error)?.message ?? e).slice(0, 200) })
    }
    if (!res?.success) {
      out.failures++
      if (rows.length === 1) {
        const b = this.backoff.get(rows[0].id) ?? { until: 0, fails: 0 }
        b.fails = Math.min(b.fails + 1, 6)
        b.until = this.now() + this.policy.retryMs * 2 ** (b.fails - 1)
        this.backoff.set(rows[0].id, b)
      }
      this.o.log?.warn('channel claim failed', {
        channels: rows.length,
        reason: res?.errorReason,
        message: res?.errorMessage?.slice(0, 200),
      })
      return false
    }
    // The claim's receipt before it is booked, so before any sweep counts on it (x402 #2471): a claim our node
    // does not show as a successful transaction is tried again (a claim that did land is a no-op on chain).
    if (this.o.rpc && !(await minedReceipt(this.o.rpc, res.transaction, this.policy.receiptWaitMs))) {
      out.failures++
      this.o.log?.warn('channel claim not seen on chain; tried again', { channels: rows.length, tx: res.transaction })
      return false
    }
    for (const c of rows) this.backoff.delete(c.id)
    const gas = this.o.gasOf ? await this.o.gasOf(res.transaction) : {}
    const amount = await this.o.store.recordClaim(
      { network: this.network, tx: res.transaction, ...gas, at: this.now() },
      rows.map((c) => ({ id: c.id, to: c.charged })),
    )
    out.claims.push({ tx: res.transaction, channels: rows.length, amount })
    return true
  }

  private async sweepIfDue(out: RoundResult, all: boolean): Promise<void> {
    const now = this.now()
    if (!all && this.sweepBackoff.until > now) return
    const { amount, lastSweepAt } = await this.o.store.unswept(this.network)
    if (amount <= 0n) return
    const waited = now - Math.max(lastSweepAt, this.startedAt) >= this.policy.sweepIntervalMs
    if (!all && amount < this.policy.sweepThreshold && !waited) return
    const r = this.o.requirements
    const payload = { type: 'settle', receiver: r.payTo as Hex, token: r.asset as Hex }
    let res: Awaited<ReturnType<ChannelFacilitator['settle']>> | undefined
    try {
      res = await this.o.facilitator.settle({ x402Version: 2, accepted: r, payload } as never, r)
    } catch (e) {
      this.o.log?.warn('channel sweep threw', { error: String((e as Error)?.message ?? e).slice(0, 200) })
    }
    if (res?.errorReason === REASON.channelNothingToSettle) {
      // With an RPC, believed only when the contract says so (x402 #2471: an indexer behind the chain answers
      // "nothing to settle" while the claim is there): else tried again later.
      if (this.o.rpc && (await unsweptOnChain(this.o.rpc, r.payTo, r.asset)) > 0n) {
        out.failures++
        this.backOffSweep(now)
        this.o.log?.warn('channel sweep: "nothing to settle" while the chain holds claimed funds; tried again')
        return
      }
      // the chain holds nothing claimed for PAY_TO: our last sweep landed but its record was lost (a crash between
      // the two), or another process swept to the same PAY_TO. Either way the funds are there: record them.
      this.o.log?.warn('channel sweep reconciled: nothing left to sweep on chain', { amount: String(amount) })
      await this.o.store.recordTx({ network: this.network, kind: 'sweep', tx: '', amount, channels: 0, at: now })
      out.sweeps.push({ tx: '', amount })
      return
    }
    if (!res?.success) {
      out.failures++
      this.backOffSweep(now)
      this.o.log?.warn('channel sweep failed', { reason: res?.errorReason, message: res?.errorMessage?.slice(0, 200) })
      return
    }
    // The chain's word (x402 #3092): with an RPC, what the receipt's positive `Settled` event for PAY_TO moved, never
    // the facilitator's amount. No successful receipt: nothing booked, tried again (a landed sweep then finds
    // nothing to settle, which the contract's state confirms). A sweep of 0 (another sweep drained it first) books
    // its gas and nothing swept.
    const proven = this.o.rpc ? await sweptByEvent(this.o.rpc, res.transaction, r.payTo, r.asset) : undefined
    if (proven === null) {
      out.failures++
      this.backOffSweep(now)
      this.o.log?.warn('channel sweep not a successful transaction on chain; tried again', { tx: res.transaction })
      return
    }
    this.sweepBackoff = { until: 0, fails: 0 }
    // Without an RPC (a remote facilitator and no RPC URL): the remote's word, as for exact (docs/channels.md).
    const swept = proven ?? (/^\d+$/.test(res.amount ?? '') ? BigInt(res.amount as string) : amount)
    const gas = this.o.gasOf ? await this.o.gasOf(res.transaction) : {}
    await this.o.store.recordTx({
      network: this.network,
      kind: 'sweep',
      tx: res.transaction,
      amount: swept,
      channels: 0,
      ...gas,
      at: this.now(),
    })
    out.sweeps.push({ tx: res.transaction, amount: swept })
  }

  private backOffSweep(now: number): void {
    this.sweepBackoff.fails = Math.min(this.sweepBackoff.fails + 1, 6)
    this.sweepBackoff.until = now + this.policy.retryMs * 2 ** (this.sweepBackoff.fails - 1)
  }
}
