import type { Logger } from '../sdk'
import { COUNTERS, utcDay } from './shared'
import type { Counter } from './store'

/**
 * Counts held in memory and written in batches (traffic counters and error counts, on both engines): a flush takes
 * the pending batch and writes it; a write that fails gives the batch back (merged with what came since) for the
 * next flush, and the error goes to whoever called flush. A timer flushes every `flushMs` without keeping the
 * process alive (its failures just wait for the next flush); close() stops it and flushes once more. On both
 * engines a failure of that last flush is dropped, not thrown: the batches are traffic counters, not money, and
 * nothing is left to retry them, so the closes that follow (the other stores, the facilitator) still run; the
 * optional `onDropped` hears how many rows were lost (never which), so the operator's log says so.
 */
export interface Batch<T> {
  /** Takes what is pending and starts a new batch (undefined when nothing is pending). */
  take(): T | undefined
  /** Gives back a batch whose write failed. */
  restore(batch: T): void
}

/** Told how many pending rows a failed last flush at close() dropped. */
export type OnDropped = (rows: number) => void

/** For a batched store: logs the rows its failed last flush at close() dropped (how many, never which). */
export const droppedCounters =
  (log: Pick<Logger, 'warn'> | undefined, store: string): OnDropped =>
  (rows) =>
    log?.warn('counters dropped at shutdown', { store, rows })

/** Rows in a batch: the traffic counters are a Map (one row per day and service), the error counts an array. */
const rowsOf = (b: unknown): number => (b instanceof Map ? b.size : Array.isArray(b) ? b.length : 1)

/** After a failed last flush the batch was given back: take it once more to count it for `onDropped`. */
function reportDropped<T>(batch: Batch<T>, onDropped: OnDropped | undefined): void {
  const b = batch.take()
  if (b !== undefined) onDropped?.(rowsOf(b))
}

function flushEvery(ms: number, flush: () => void | Promise<void>): ReturnType<typeof setInterval> {
  const timer = setInterval(() => {
    try {
      void flush()?.catch(() => {})
    } catch {
      // the batch was kept for the next flush
    }
  }, ms)
  timer.unref?.()
  return timer
}

/** Batched writes with a synchronous write (SQLite: one transaction per flush). */
export class SyncBatchWriter<T> {
  private timer: ReturnType<typeof setInterval>

  constructor(
    private batch: Batch<T>,
    private write: (batch: T) => void,
    flushMs: number,
    private onDropped?: OnDropped,
  ) {
    this.timer = flushEvery(flushMs, () => this.flush())
  }

  flush(): void {
    const b = this.batch.take()
    if (b === undefined) return
    try {
      this.write(b)
    } catch (e) {
      this.batch.restore(b)
      throw e
    }
  }

  /** Stops the timer and flushes once more (a failure is dropped and reported: nothing is left to retry it). */
  close(): void {
    clearInterval(this.timer)
    try {
      this.flush()
    } catch {
      // dropped, as on Postgres (AsyncBatchWriter.close)
      reportDropped(this.batch, this.onDropped)
    }
  }
}

/** Batched writes with an asynchronous write (Postgres: one statement per flush); flushes run one after another. */
export class AsyncBatchWriter<T> {
  private timer: ReturnType<typeof setInterval>
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private batch: Batch<T>,
    private write: (batch: T) => Promise<void>,
    flushMs: number,
    private onDropped?: OnDropped,
  ) {
    this.timer = flushEvery(flushMs, () => this.flush())
  }

  flush(): Promise<void> {
    const next = () => this.writeOnce()
    this.flushing = this.flushing.then(next, next)
    return this.flushing
  }

  private async writeOnce(): Promise<void> {
    const b = this.batch.take()
    if (b === undefined) return
    try {
      await this.write(b)
    } catch (e) {
      this.batch.restore(b)
      throw e
    }
  }

  /** Stops the timer and flushes once more (a failure is dropped and reported: nothing is left to retry it). */
  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush().catch(() => reportDropped(this.batch, this.onDropped))
  }
}

// ---- The two batches: traffic counters and error counts ----

/** Pending increments, key `day|slug` (shared by the SQLite and Postgres stores). */
export type PendingCounters = Map<string, Record<Counter, number>>

/** Increments held in memory between flushes (shared by the SQLite and Postgres stores). */
export class CounterBatch implements Batch<PendingCounters> {
  private pending: PendingCounters = new Map()

  constructor(private now: () => Date) {}

  /** Adds to the counters of `slug` for today (UTC). */
  add(slug: string, add: Partial<Record<Counter, number>>): void {
    this.addTo(`${utcDay(this.now())}|${slug}`, add)
  }

  take(): PendingCounters | undefined {
    if (!this.pending.size) return undefined
    const batch = this.pending
    this.pending = new Map()
    return batch
  }

  restore(batch: PendingCounters): void {
    for (const [key, row] of batch) this.addTo(key, row)
  }

  /** The first day of a `days`-day window ending today (UTC). */
  since(days: number): string {
    return utcDay(new Date(this.now().getTime() - (days - 1) * 86_400_000))
  }

  private addTo(key: string, add: Partial<Record<Counter, number>>): void {
    let row = this.pending.get(key)
    if (!row) this.pending.set(key, (row = { calls: 0, errors: 0, tokens: 0, demo_calls: 0 }))
    for (const c of COUNTERS) row[c] += add[c] ?? 0
  }
}

const CODE = /^[A-Z][A-Z0-9_]{0,63}$/
/** Distinct (code, status) pairs kept per service per batch: a misbehaving service cannot grow the batch unbounded. */
const MAX_CODES_PER_SLUG = 64

/**
 * Increments held in memory between flushes (shared by the SQLite and Postgres stores): key `day|slug|code|status`.
 * Codes that are not UPPER_SNAKE are counted as OTHER.
 */
export type PendingCount = { day: string; slug: string; code: string; status: number; count: number }

export class ErrorCountBatch implements Batch<PendingCount[]> {
  private pending = new Map<string, number>()
  private perSlug = new Map<string, number>()

  constructor(private now: () => Date) {}

  add(slug: string, status: number, code: string): void {
    if (!CODE.test(code)) code = 'OTHER'
    if (!Number.isInteger(status) || status < 400 || status > 599) status = 500
    this.count(`${utcDay(this.now())}|${slug}|${code}|${status}`, slug, 1)
  }

  /** Adds `n` to `key`; a key new to the batch is admitted only while its service has fewer than the bound. */
  private count(key: string, slug: string, n: number): void {
    const had = this.pending.get(key)
    if (had !== undefined) this.pending.set(key, had + n)
    else if ((this.perSlug.get(slug) ?? 0) < MAX_CODES_PER_SLUG) {
      this.pending.set(key, n)
      this.perSlug.set(slug, (this.perSlug.get(slug) ?? 0) + 1)
    }
  }

  /** Takes the batch (the store writes it, and gives it back with `restore` when the write failed). */
  take(): PendingCount[] | undefined {
    if (!this.pending.size) return undefined
    const out = [...this.pending].map(([k, count]) => {
      const [day, slug, code, status] = k.split('|')
      return { day, slug, code, status: Number(status), count }
    })
    this.pending = new Map()
    this.perSlug = new Map()
    return out
  }

  /**
   * Merges a batch whose write failed back in, under the same bound as `add` (the keys that came since count
   * against it): however many flushes fail, a service never holds more than MAX_CODES_PER_SLUG keys.
   */
  restore(rows: PendingCount[]): void {
    for (const r of rows) this.count(`${r.day}|${r.slug}|${r.code}|${r.status}`, r.slug, r.count)
  }

  /** The first day of a `days`-day window ending today (UTC). */
  since(days: number): string {
    return utcDay(new Date(this.now().getTime() - (days - 1) * 86_400_000))
  }
}
