import type { Database } from 'bun:sqlite'
import { nextUtcMidnight, utcDay } from '../shared'
import type { QuotaResult, QuotaStore } from '../store'

/** Daily per-client quota. One UPSERT statement: concurrent calls can never exceed the limit. */
export class DailyQuota implements QuotaStore {
  private take
  private peek
  private giveBack

  constructor(
    db: Database,
    private limit: number,
    private now = () => new Date(),
  ) {
    this.take = db.prepare(
      `INSERT INTO demo_quota (day, client, count) VALUES (?1, ?2, 1)
       ON CONFLICT (day, client) DO UPDATE SET count = count + 1 WHERE count < ?3
       RETURNING count`,
    )
    this.peek = db.prepare('SELECT count FROM demo_quota WHERE day = ?1 AND client = ?2')
    this.giveBack = db.prepare('UPDATE demo_quota SET count = count - 1 WHERE day = ?1 AND client = ?2 AND count > 0')
  }

  /** Reserves one call for `client` today, if any are left. Call `refund` when the call then fails. */
  consume(client: string): QuotaResult {
    const now = this.now()
    const day = utcDay(now)
    const row = this.limit > 0 ? (this.take.get(day, client, this.limit) as { count: number } | null) : null
    const used = row ? row.count : ((this.peek.get(day, client) as { count: number } | null)?.count ?? this.limit)
    return {
      allowed: !!row,
      used,
      limit: this.limit,
      remaining: Math.max(0, this.limit - used),
      resetsAt: nextUtcMidnight(now),
      day,
    }
  }

  /** Gives back a call reserved by `consume` that did not succeed (a failed call never uses up the quota). */
  refund(client: string, q: QuotaResult): void {
    if (q.allowed) this.giveBack.run(q.day, client)
  }
}
