import type { Database } from 'bun:sqlite'
import { CounterBatch, SyncBatchWriter, type OnDropped, type PendingCounters } from '../batched'
import { COUNTERS } from '../shared'
import type { Counter, StatsStore } from '../store'

/**
 * Per-service per-day traffic counters (calls, errors, tokens, demo calls). Increments are held in memory and written in one transaction per flush
 * (every `flushMs`, and on close), so recording never touches the disk on the request path.
 * A read flushes the pending increments first, so /stats is exact at any moment; while the database fails, the read
 * fails too (an error answer, never a partial count) and the increments stay pending for the next flush.
 */
export class Stats implements StatsStore {
  private batch: CounterBatch
  private writer: SyncBatchWriter<PendingCounters>

  constructor(
    private db: Database,
    flushMs = 1000,
    now = () => new Date(),
    onDropped?: OnDropped,
  ) {
    this.batch = new CounterBatch(now)
    const upsert = db.prepare(
      `INSERT INTO stats_daily (day, slug, ${COUNTERS.join(', ')}) VALUES ($day, $slug, ${COUNTERS.map((c) => '$' + c).join(', ')})
       ON CONFLICT (day, slug) DO UPDATE SET ${COUNTERS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`,
    )
    const write = db.transaction((batch: PendingCounters) => {
      for (const [key, row] of batch) {
        const [day, slug] = key.split('|')
        upsert.run({ day, slug, ...row })
      }
    })
    this.writer = new SyncBatchWriter(this.batch, (batch) => void write(batch), flushMs, onDropped)
  }

  /** Adds to the counters of `slug` for today (UTC). */
  record(slug: string, add: Partial<Record<Counter, number>>): void {
    this.batch.add(slug, add)
  }

  /** Writes pending increments in one transaction; on failure they are kept for the next flush. */
  flush(): void {
    this.writer.flush()
  }

  /** Per-day, per-service rows for the last `days` days (including pending increments). */
  rows(days = 30): Array<{ day: string; slug: string } & Record<Counter, number>> {
    this.flush()
    return this.db
      .query(`SELECT day, slug, ${COUNTERS.join(', ')} FROM stats_daily WHERE day >= ? ORDER BY day, slug`)
      .all(this.batch.since(days)) as never
  }

  close(): void {
    this.writer.close()
  }
}
