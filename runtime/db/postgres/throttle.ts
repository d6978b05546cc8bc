import type { SQL } from 'bun'
import type { ThrottleStore } from '../store'

/**
 * A fixed-window throttle (runtime/db/throttle.ts) on Postgres: one window per key shared by every instance, so a
 * client cannot get N times the allowance by spreading its tries over N instances. A hit is one UPSERT; a check is
 * one indexed read. Several throttles share the `refusals` table, each in its own bucket: the payment refusals
 * (bucket '', keys as given: client addresses and `payer:0x…`) and named ones (e.g. the console's sign-ins, bucket
 * `sign-in`, keys stored as `sign-in#<key>`). Now and then a throttle deletes its own bucket's windows older than
 * its own window, so a one-minute throttle never resets a five-minute one.
 */
export class PgThrottle implements ThrottleStore {
  private seen = new Map<string, number>()
  private hits = 0
  private prefix: string

  constructor(
    private sql: SQL,
    private limit: number,
    private windowMs = 60_000,
    private now = () => Date.now(),
    bucket = '',
  ) {
    if (bucket.includes('#')) throw new Error('a throttle bucket name has no #')
    this.prefix = bucket ? `${bucket}#` : ''
  }

  async blocked(key: string): Promise<boolean> {
    if (this.limit <= 0) return false
    const rows = await this.sql`SELECT window_start, count FROM refusals WHERE key = ${this.prefix + key}`
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
      INSERT INTO refusals (key, window_start, count) VALUES (${this.prefix + key}, ${now}::bigint, 1)
      ON CONFLICT (key) DO UPDATE SET
        window_start = CASE WHEN refusals.window_start <= ${expired}::bigint THEN ${now}::bigint ELSE refusals.window_start END,
        count = CASE WHEN refusals.window_start <= ${expired}::bigint THEN 1 ELSE refusals.count + 1 END`
    if (++this.hits % 100 === 0) await this.cleanup(expired)
  }

  /** Deletes this bucket's windows that ended (only this bucket's: other throttles have other windows). */
  private async cleanup(expired: number): Promise<void> {
    if (this.prefix)
      await this.sql`DELETE FROM refusals WHERE window_start <= ${expired}::bigint AND starts_with(key, ${this.prefix})`
    else await this.sql`DELETE FROM refusals WHERE window_start <= ${expired}::bigint AND strpos(key, '#') = 0`
  }

  /** Seconds until `key`'s window ends (as read by the last `blocked` that refused it). */
  retryAfter(key: string): number {
    const start = this.seen.get(key)
    return start === undefined ? 1 : Math.max(1, Math.ceil((start + this.windowMs - this.now()) / 1000))
  }
}
