import type { LedgerStore } from '../../../db/store'
import { PaymentRefused } from '../../wire'
import { REASON } from '../../reasons'
import { RETRY_IN_FLIGHT_S, RETRY_PENDING_S } from './kept-results'
import { ServiceError } from '../../../sdk'
import type { Facilitator } from '../../types'

/** Rounds of "wait for the payer's payments to be recorded, read again" before a refusal is sent. */
const MAX_ROUNDS = 3

/**
 * The per-payer in-flight check, one mechanism on both engines: the amounts in flight are the payer's ledger rows
 * (verified, settling, pending until expiry), read and moved to `verified` in one transaction under the payer's lock
 * (`verifyWithin`: BEGIN IMMEDIATE on SQLite, an advisory lock on Postgres, so the limit holds across instances).
 * Nothing in flight is counted in memory. The payer's balance is read from the chain only when something else is in
 * flight (or settled since the verification began), and then reused for `ttlMs`: the ledger subtracts what settled
 * since it was read, so a cached balance never overstates what the payer can still pay. Concurrent reads of one
 * payer's balance share one RPC call.
 *
 * This errs on the safe side: a transfer mined before a read but recorded after it (the row still `settling`, or
 * settled after the read began, less the ledger's clock skew) is counted twice. So a refusal while payments of the
 * payer are sent or just settled is checked again once they had time to be recorded: after this process's
 * settlements of the payer end (tracked by `trackSettlement`, no fixed wait) and, on a ledger written by several
 * instances, after their clock skew plus 200 ms; up to MAX_ROUNDS times. A payer that really is short is refused
 * then; one whose other payments are only verified (nothing sent) at once.
 */
export class PayerFunds {
  private balances = new Map<string, { value: bigint; readAtMs: number }>()
  private reads = new Map<string, { p: Promise<bigint>; readAtMs: number }>()
  private settling = new Map<string, Set<Promise<unknown>>>()

  constructor(
    private ledger: LedgerStore,
    private facilitator: Facilitator,
    private ttlMs = 2_000,
    private maxPayers = 10_000,
    private now = () => Date.now(),
  ) {}

  /** Moves reservation `id` to verified, or throws PaymentRefused (insufficient balance). `sinceMs`: when its verification began. */
  async hold(id: number, payer: string, amount: bigint, asset: string, sinceMs: number): Promise<void> {
    const since = sinceMs - this.ledger.clockSkewMs
    let r = await this.ledger.verifyWithin(id, payer, amount, null, since)
    if (r.outcome === 'ok') return
    if (!this.facilitator.balance) {
      // A backend that cannot read balances (a remote facilitator without RPC_URL): at most one unsettled paid call
      // per payer. 'recheck' means another of its payments is in flight (verified, settling, pending until its
      // authorization expires) or one settled since this verification began (the verification's balance check may
      // predate it); without a balance to read, the payer is told to send this payment again later.
      if (r.outcome === 'recheck') {
        throw new ServiceError(
          429,
          'BUSY',
          'Another paid call of this payer is not settled yet (one at a time); send this payment again shortly. Nothing was charged.',
          { headers: { 'retry-after': String(r.sent > 0n ? RETRY_PENDING_S : RETRY_IN_FLIGHT_S) }, retryable: true },
        )
      }
      throw new PaymentRefused(REASON.invalidPayment, 'the payment was released before its verification ended')
    }
    const key = payer.toLowerCase()
    const cached = this.balances.get(key)
    let notBefore = 0
    if (cached && this.now() - cached.readAtMs <= this.ttlMs) {
      r = await this.ledger.verifyWithin(id, payer, amount, cached, since)
      if (r.outcome === 'ok') return
      notBefore = cached.readAtMs + 1
    }
    for (let round = 0; round <= MAX_ROUNDS; round++) {
      if (round > 0) {
        // Short on a fresh read: it stands unless a payment of this payer may be counted twice, that is one
        // settling whose transfer already shows in the read (wait for it to be recorded), or one recorded as
        // settled after the read began whose transfer the node already counted (a read begun now excludes it).
        // Payments merely verified (handlers running) have sent nothing: they never show in a read.
        const local = this.settlements(key)
        const skew = this.ledger.clockSkewMs
        if (r.sent === 0n && r.spent === 0n) break // nothing sent: exact
        if (skew === 0 && !local.length && r.spent === 0n) break // one process, none of its settlements running: exact
        await Promise.allSettled(local)
        // other instances' settlements being recorded, their clocks; at least the ledger's 1 ms tick, so the next
        // read begins after anything recorded so far (a settlement in the read's own millisecond counts as after it)
        await Bun.sleep(skew > 0 ? skew + 200 : 1)
        notBefore = this.now()
      }
      const b = await this.read(payer, asset, notBefore)
      r = await this.ledger.verifyWithin(id, payer, amount, b, since)
      if (r.outcome === 'ok') return
    }
    throw new PaymentRefused(
      REASON.insufficientBalance,
      `the payer's balance minus its payments in flight (${r.inFlight}) does not cover ${amount}`,
    )
  }

  /** The payer's balance from a read begun at `notBeforeMs` or later (joining one in progress), remembered for `ttlMs`. */
  private async read(payer: string, asset: string, notBeforeMs: number): Promise<{ value: bigint; readAtMs: number }> {
    const key = payer.toLowerCase()
    const going = this.reads.get(key)
    if (going && going.readAtMs >= notBeforeMs) return { value: await going.p, readAtMs: going.readAtMs }
    const readAtMs = this.now()
    const p = this.facilitator.balance!(payer as `0x${string}`, asset)
    const entry = { p, readAtMs }
    this.reads.set(key, entry)
    try {
      const value = await p
      this.remember(key, { value, readAtMs })
      return { value, readAtMs }
    } finally {
      if (this.reads.get(key) === entry) this.reads.delete(key)
    }
  }

  /** Registers a settlement of `payer` in progress until `done` settles (its transfer may show in a read before its row does). */
  trackSettlement(payer: string, done: Promise<unknown>): void {
    const key = payer.toLowerCase()
    let set = this.settling.get(key)
    if (!set) this.settling.set(key, (set = new Set()))
    set.add(done)
    const drop = () => {
      set!.delete(done)
      if (!set!.size && this.settling.get(key) === set) this.settling.delete(key)
    }
    done.then(drop, drop)
  }

  /** This process's settlements of the payer in progress. */
  settlements(payer: string): Promise<unknown>[] {
    return [...(this.settling.get(payer.toLowerCase()) ?? [])]
  }

  /** The outcome of a transfer is unknown or failed: read the balance again next time. */
  forget(payer: string): void {
    this.balances.delete(payer.toLowerCase())
  }

  private remember(key: string, b: { value: bigint; readAtMs: number }): void {
    const old = this.balances.get(key)
    if (old && old.readAtMs > b.readAtMs) return // a later read already landed
    this.balances.delete(key)
    this.balances.set(key, b)
    if (this.balances.size > this.maxPayers) this.balances.delete(this.balances.keys().next().value!)
  }
}
