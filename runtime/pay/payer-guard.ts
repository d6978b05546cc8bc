/**
 * Per-payer protections of the payment gate, in memory (one process):
 * - in-flight amounts: what each payer has verified but not yet settled or released, so a payer funded for one
 *   call cannot get 20 handlers run by sending 20 authorizations at once (with the payer's balance as last read,
 *   less what settled since, so a busy payer costs one balance read per TTL, not one per call);
 * - cool-downs: a payer whose settlement failed after its payment verified (e.g. funds moved away mid-call, a
 *   wallet that only validates under simulation) is refused for a while, doubling with each repeat.
 * Memory is bounded: at most `maxPayers` cool-downs are kept (oldest dropped first).
 */
export class PayerGuard {
  private inflight = new Map<string, bigint>()
  private locks = new Map<string, Promise<unknown>>()
  private cooldowns = new Map<string, { until: number; strikes: number }>()
  /** Sequence number of each payer's latest hold or free (bounded, oldest dropped; `droppedUpTo` remembers how far). */
  private seq = 0
  private lastChange = new Map<string, number>()
  private droppedUpTo = 0
  /** Balances read while a payer has payments in flight, kept current by subtracting what settles (kept ≤ `balanceTtlMs`). */
  private balances = new Map<string, { value: bigint; at: number }>()

  constructor(
    private now = () => Date.now(),
    readonly baseCooldownMs = 30_000,
    readonly maxCooldownMs = 30 * 60_000,
    private maxPayers = 10_000,
    readonly balanceTtlMs = 2_000,
  ) {}

  /** Settlements in progress per payer: their transfers may already show in a balance read while still held. */
  private settling = new Map<string, Set<Promise<unknown>>>()

  /** Registers a settlement of `payer` in progress until `done` settles. */
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

  /** The payer's settlements in progress. */
  settlements(payer: string): Promise<unknown>[] {
    return [...(this.settling.get(payer.toLowerCase()) ?? [])]
  }

  /** The payer's balance as last read, less what settled since; undefined when unknown or older than the TTL. */
  cachedBalance(payer: string): bigint | undefined {
    const b = this.balances.get(payer.toLowerCase())
    return b && this.now() - b.at <= this.balanceTtlMs ? b.value : undefined
  }

  rememberBalance(payer: string, value: bigint): void {
    this.balances.set(payer.toLowerCase(), { value, at: this.now() })
  }

  /** A payment of the payer settled: its remembered balance drops by the amount. */
  spent(payer: string, amount: bigint): void {
    const b = this.balances.get(payer.toLowerCase())
    if (b) b.value = b.value > amount ? b.value - amount : 0n
  }

  /** The outcome of a transfer is unknown (pending, failed): read the balance again next time. */
  forgetBalance(payer: string): void {
    this.balances.delete(payer.toLowerCase())
  }

  /** Runs `fn` with no other `withPayer` of the same payer running (per-payer FIFO). */
  async withPayer<T>(payer: string, fn: () => Promise<T>): Promise<T> {
    const key = payer.toLowerCase()
    const prev = this.locks.get(key) ?? Promise.resolve()
    const run = prev.then(fn, fn)
    const tail = run.catch(() => {})
    this.locks.set(key, tail)
    try {
      return await run
    } finally {
      if (this.locks.get(key) === tail) this.locks.delete(key)
    }
  }

  /** Sum of the payer's in-flight amounts (atomic units). */
  inFlight(payer: string): bigint {
    return this.inflight.get(payer.toLowerCase()) ?? 0n
  }

  /** A mark to pass to `heldSince` later. */
  mark(): number {
    return this.seq
  }

  /** True when a payment of the payer may have been held or freed since `mark` (conservative once its record was dropped). */
  changedSince(payer: string, mark: number): boolean {
    const last = this.lastChange.get(payer.toLowerCase())
    return (last !== undefined && last > mark) || this.droppedUpTo > mark
  }

  hold(payer: string, amount: bigint): void {
    const key = payer.toLowerCase()
    this.inflight.set(key, this.inFlight(key) + amount)
    this.touch(key)
  }

  private touch(key: string): void {
    this.lastChange.delete(key)
    this.lastChange.set(key, ++this.seq)
    if (this.lastChange.size > this.maxPayers) {
      const [oldest, at] = this.lastChange.entries().next().value!
      this.lastChange.delete(oldest)
      this.droppedUpTo = Math.max(this.droppedUpTo, at)
    }
  }

  free(payer: string, amount: bigint): void {
    const key = payer.toLowerCase()
    const left = this.inFlight(key) - amount
    if (left > 0n) this.inflight.set(key, left)
    else {
      this.inflight.delete(key)
      this.balances.delete(key) // kept only while payments are in flight: memory bounded by concurrency
    }
    this.touch(key)
  }

  /** Milliseconds of cool-down left for `payer` (0 when none). */
  coolingFor(payer: string): number {
    const c = this.cooldowns.get(payer.toLowerCase())
    return c ? Math.max(0, c.until - this.now()) : 0
  }

  /**
   * Starts (or extends) the payer's cool-down after a failed settlement: base, then doubling with each repeat,
   * capped. A payer whose last cool-down ended more than the cap ago starts again from the base. Returns its length (ms).
   */
  strike(payer: string): number {
    const key = payer.toLowerCase()
    const t = this.now()
    const prev = this.cooldowns.get(key)
    const strikes = prev && t - prev.until < this.maxCooldownMs ? prev.strikes + 1 : 1
    const ms = Math.min(this.maxCooldownMs, this.baseCooldownMs * 2 ** Math.min(strikes - 1, 30))
    this.cooldowns.delete(key)
    this.cooldowns.set(key, { until: t + ms, strikes })
    if (this.cooldowns.size > this.maxPayers) this.cooldowns.delete(this.cooldowns.keys().next().value!)
    return ms
  }
}
