import type { SQL } from 'bun'
import type { Counter } from '../stats'
import type { StatsStore } from '../store'
import { utcDay } from '../sqlite'

const COUNTERS: Counter[] = ['calls', 'errors', 'tokens', 'demo_calls']

/**
 * Traffic counters on Postgres: held in memory per instance and added to the shared rows every `flushMs` (one
 * statement per flush), so /stats converges across instances within a flush; paid calls and revenue come from
 * the ledger and are exact at once.
 */
export class PgStats implements StatsStore {
  private pending = new Map<string, Record<Counter, number>>()
  private timer: ReturnType<typeof setInterval>
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private sql: SQL,
    flushMs = 1000,
    private now = () => new Date(),
  ) {
    this.timer = setInterval(() => void this.flush().catch(() => {}), flushMs)
    this.timer.unref?.()
  }

  record(slug: string, add: Partial<Record<Counter, number>>): void {
    const key = `${utcDay(this.now())}|${slug}`
    let row = this.pending.get(key)
    if (!row) this.pending.set(key, (row = { calls: 0, errors: 0, tokens: 0, demo_calls: 0 }))
    for (const c of COUNTERS) row[c] += add[c] ?? 0
  }

  /** Adds pending increments in one statement; on failure they are put back for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(
      () => this.write(),
      () => this.write(),
    )
    return this.flushing
  }

  private async write(): Promise<void> {
    if (!this.pending.size) return
    const batch = this.pending
    this.pending = new Map()
    const keys = [...batch.keys()]
    const col = (c: Counter) => keys.map((k) => batch.get(k)![c]).join(',')
    try {
      await this.sql`
        INSERT INTO stats_daily (day, slug, calls, errors, tokens, demo_calls)
        SELECT split_part(k, '|', 1), substr(k, strpos(k, '|') + 1), c, e, t, d
        FROM unnest(string_to_array(${keys.join('\n')}, E'\n'), string_to_array(${col('calls')}, ',')::bigint[],
                    string_to_array(${col('errors')}, ',')::bigint[], string_to_array(${col('tokens')}, ',')::bigint[],
                    string_to_array(${col('demo_calls')}, ',')::bigint[]) AS x(k, c, e, t, d)
        ON CONFLICT (day, slug) DO UPDATE SET calls = stats_daily.calls + excluded.calls, errors = stats_daily.errors + excluded.errors,
          tokens = stats_daily.tokens + excluded.tokens, demo_calls = stats_daily.demo_calls + excluded.demo_calls`
    } catch (e) {
      for (const [k, row] of batch) {
        const cur = this.pending.get(k)
        if (!cur) this.pending.set(k, row)
        else for (const c of COUNTERS) cur[c] += row[c]
      }
      throw e
    }
  }

  async rows(days = 30): Promise<Array<{ day: string; slug: string } & Record<Counter, number>>> {
    await this.flush()
    const since = utcDay(new Date(this.now().getTime() - (days - 1) * 86_400_000))
    const rows = await this
      .sql`SELECT day, slug, calls, errors, tokens, demo_calls FROM stats_daily WHERE day >= ${since} ORDER BY day, slug`
    return rows.map((r: Record<string, string>) => ({
      day: r.day,
      slug: r.slug,
      calls: Number(r.calls),
      errors: Number(r.errors),
      tokens: Number(r.tokens),
      demo_calls: Number(r.demo_calls),
    }))
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush().catch(() => {})
  }
}
