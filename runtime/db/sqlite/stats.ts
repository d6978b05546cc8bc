import type { Database } from 'bun:sqlite'
import { utcDay } from './connect'
import { SyncBatchWriter, type Batch, type OnDropped } from '../batched'

/** Traffic counters. Paid calls and revenue are not counters: they are read from the ledger's settled rows. */
export type Counter = 'calls' | 'errors' | 'tokens' | 'demo_calls'
const COUNTERS: Counter[] = ['calls', 'errors', 'tokens', 'demo_calls']

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

/**
 * Per-service per-day traffic counters (calls, errors, tokens, demo calls). Increments are held in memory and written in one transaction per flush
 * (every `flushMs`, and on close), so recording never touches the disk on the request path.
 * A read flushes the pending increments first, so /stats is exact at any moment; while the database fails, the read
 * fails too (an error answer, never a partial count) and the increments stay pending for the next flush.
 */
export class Stats {
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
