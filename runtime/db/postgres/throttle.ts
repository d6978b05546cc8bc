import type { SQL } from 'bun'
import type { ThrottleStore } from '../store'

/**
 * The refusal throttle (runtime/http/throttle.ts) on Postgres: one fixed window per key shared by every instance,
 * so a client cannot get N times the allowance by spreading its refused payments over N instances. A hit is one
 * UPSERT; a check is one indexed read. Windows older than a minute are deleted now and then.
 */
export class PgThrottle implements ThrottleStore {
  private seen = new Map<string, number>()
  private hits = 0

  constructor(
    private sql: SQL,
    private limit: number,
    private windowMs = 60_000,
    private now = () => Date.now(),
  ) {}

  async blocked(key: string): Promise<boolean> {
    if (this.limit <= 0) return false
    const rows = await this.sql`SELECT window_start, count FROM refusals WHERE key = ${key}`
    if (!rows.length) return false
    const start = Number(rows[0].window_start)
    const blocked = this.now() - start < this.windowMs && Number(rows[0].count) >= this.limit
    if (blocked) {
      this.seen.set(key, start)
      if (this.seen.size > 1000) this.seen.delete(this.seen.keys().next().value!)
    }
    return blocked
  }

  async hit(key: string): Promise<void> {
    if (this.limit <= 0) return
    const now = this.now()
    const expired = now - this.windowMs
    await this.sql`
      INSERT INTO refusals (key, window_start, count) VALUES (${key}, ${now}::bigint, 1)
      ON CONFLICT (key) DO UPDATE SET
        window_start = CASE WHEN refusals.window_start <= ${expired}::bigint THEN ${now}::bigint ELSE refusals.window_start END,
        count = CASE WHEN refusals.window_start <= ${expired}::bigint THEN 1 ELSE refusals.count + 1 END`
    if (++this.hits % 100 === 0) await this.sql`DELETE FROM refusals WHERE window_start <= ${expired}::bigint`
  }

  /** Seconds until `key`'s window ends (as read by the last `blocked` that refused it). */
  retryAfter(key: string): number {
    const start = this.seen.get(key)
    return start === undefined ? 1 : Math.max(1, Math.ceil((start + this.windowMs - this.now()) / 1000))
  }
}
