import type { Database } from 'bun:sqlite'
import { utcDay } from './sqlite'

/** Traffic counters. Paid calls and revenue are not counters: they are read from the ledger's settled rows. */
export type Counter = 'calls' | 'errors' | 'tokens' | 'demo_calls'
const COUNTERS: Counter[] = ['calls', 'errors', 'tokens', 'demo_calls']

/**
 * Per-service per-day traffic counters (calls, errors, tokens, demo calls). Increments are held in memory and written in one transaction per flush
 * (every `flushMs`, and on close), so recording never touches the disk on the request path.
 * Reads merge the pending increments, so /stats is exact at any moment.
 */
export class Stats {
  private pending = new Map<string, Record<Counter, number>>()
  private timer: ReturnType<typeof setInterval>
  private upsert

  constructor(
    private db: Database,
    flushMs = 1000,
    private now = () => new Date(),
  ) {
    this.upsert = db.prepare(
      `INSERT INTO stats_daily (day, slug, ${COUNTERS.join(', ')}) VALUES ($day, $slug, ${COUNTERS.map((c) => '$' + c).join(', ')})
       ON CONFLICT (day, slug) DO UPDATE SET ${COUNTERS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`,
    )
    this.timer = setInterval(() => this.flush(), flushMs)
    this.timer.unref?.()
  }

  /** Adds to the counters of `slug` for today (UTC). */
  record(slug: string, add: Partial<Record<Counter, number>>): void {
    const key = `${utcDay(this.now())}|${slug}`
    let row = this.pending.get(key)
    if (!row) this.pending.set(key, (row = { calls: 0, errors: 0, tokens: 0, demo_calls: 0 }))
    for (const c of COUNTERS) row[c] += add[c] ?? 0
  }

  /** Writes pending increments in one transaction. */
  flush(): void {
    if (!this.pending.size) return
    const batch = this.pending
    this.pending = new Map()
    this.db.transaction(() => {
      for (const [key, row] of batch) {
        const [day, slug] = key.split('|')
        this.upsert.run({ day, slug, ...row })
      }
    })()
  }

  /** Per-day, per-service rows for the last `days` days (including pending increments). */
  rows(days = 30): Array<{ day: string; slug: string } & Record<Counter, number>> {
    this.flush()
    const since = utcDay(new Date(this.now().getTime() - (days - 1) * 86_400_000))
    return this.db
      .query(`SELECT day, slug, ${COUNTERS.join(', ')} FROM stats_daily WHERE day >= ? ORDER BY day, slug`)
      .all(since) as never
  }

  close(): void {
    clearInterval(this.timer)
    this.flush()
  }
}
