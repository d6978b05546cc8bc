import type { SQL } from 'bun'
import type { CooldownStore } from '../store'

/**
 * Payer cool-downs on Postgres, shared by every instance (runtime/db/cooldowns.ts keeps them in memory on
 * SQLite): a payer whose settlement failed after its payment verified is refused by all instances, not by one.
 * A check is one primary-key read; a strike is one UPSERT computing the doubling exactly like PayerCooldowns.strike
 * (base, doubling per repeat, capped; restarting from the base once the last cool-down ended a cap or more ago).
 * Rows past that quiet period no longer matter and are deleted now and then.
 */
export class PgCooldowns implements CooldownStore {
  private strikes = 0

  constructor(
    private sql: SQL,
    private now = () => Date.now(),
    readonly baseCooldownMs = 30_000,
    readonly maxCooldownMs = 30 * 60_000,
  ) {}

  async coolingFor(payer: string): Promise<number> {
    const rows = await this.sql`SELECT until_ms FROM payer_cooldowns WHERE payer = ${payer.toLowerCase()}`
    return rows.length ? Math.max(0, Number(rows[0].until_ms) - this.now()) : 0
  }

  async strike(payer: string): Promise<number> {
    const t = this.now()
    const base = this.baseCooldownMs
    const max = this.maxCooldownMs
    const [row] = await this.sql`
      INSERT INTO payer_cooldowns AS c (payer, until_ms, strikes)
      VALUES (${payer.toLowerCase()}, ${t + Math.min(base, max)}::bigint, 1)
      ON CONFLICT (payer) DO UPDATE SET
        strikes = CASE WHEN ${t}::bigint - c.until_ms < ${max}::bigint THEN c.strikes + 1 ELSE 1 END,
        until_ms = ${t}::bigint + LEAST(${max}::bigint, ${base}::bigint *
          (1::bigint << LEAST(CASE WHEN ${t}::bigint - c.until_ms < ${max}::bigint THEN c.strikes ELSE 0 END, 30)))
      RETURNING until_ms`
    if (++this.strikes % 100 === 0)
      await this.sql`DELETE FROM payer_cooldowns WHERE until_ms <= ${t - max}::bigint`.catch(() => {})
    return Number(row.until_ms) - t
  }
}
