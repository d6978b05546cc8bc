import type { SQL } from 'bun'
import { nextUtcMidnight, utcDay } from '../shared'
import type { QuotaResult, QuotaStore } from '../store'

/** The demo's daily quota on Postgres: one atomic UPSERT, so N instances together never exceed the limit. */
export class PgQuota implements QuotaStore {
  constructor(
    private sql: SQL,
    private limit: number,
    private now = () => new Date(),
  ) {}

  async consume(client: string): Promise<QuotaResult> {
    const now = this.now()
    const day = utcDay(now)
    let used = this.limit
    let allowed = false
    if (this.limit > 0) {
      const rows = await this.sql`
        INSERT INTO demo_quota (day, client, count) VALUES (${day}, ${client}, 1)
        ON CONFLICT (day, client) DO UPDATE SET count = demo_quota.count + 1 WHERE demo_quota.count < ${this.limit}::int
        RETURNING count`
      if (rows.length) {
        allowed = true
        used = Number(rows[0].count)
      } else {
        const [r] = await this.sql`SELECT count FROM demo_quota WHERE day = ${day} AND client = ${client}`
        used = r ? Number(r.count) : this.limit
      }
    }
    return {
      allowed,
      used,
      limit: this.limit,
      remaining: Math.max(0, this.limit - used),
      resetsAt: nextUtcMidnight(now),
      day,
    }
  }

  async refund(client: string, q: QuotaResult): Promise<void> {
    if (q.allowed)
      await this.sql`UPDATE demo_quota SET count = count - 1 WHERE day = ${q.day} AND client = ${client} AND count > 0`
  }
}
