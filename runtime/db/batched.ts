/**
 * Counts held in memory and written in batches (traffic counters and error counts, on both engines): a flush takes
 * the pending batch and writes it; a write that fails gives the batch back (merged with what came since) for the
 * next flush, and the error goes to whoever called flush. A timer flushes every `flushMs` without keeping the
 * process alive (its failures just wait for the next flush); close() stops it and flushes once more. On both
 * engines a failure of that last flush is dropped, not thrown: the batches are traffic counters, not money, and
 * nothing is left to retry them, so the closes that follow (the other stores, the facilitator) still run.
 */
export interface Batch<T> {
  /** Takes what is pending and starts a new batch (undefined when nothing is pending). */
  take(): T | undefined
  /** Gives back a batch whose write failed. */
  restore(batch: T): void
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

  /** Stops the timer and flushes once more (a failure is dropped: nothing is left to retry it). */
  close(): void {
    clearInterval(this.timer)
    try {
      this.flush()
    } catch {
      // dropped, as on Postgres (AsyncBatchWriter.close)
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

  /** Stops the timer and flushes once more (a failure is dropped: nothing is left to retry it). */
  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush().catch(() => {})
  }
}
