import type { Logger } from '../sdk'

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
