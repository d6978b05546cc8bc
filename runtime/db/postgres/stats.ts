import type { SQL } from 'bun'
import { AsyncBatchWriter, CounterBatch, type OnDropped, type PendingCounters } from '../batched'
import type { Counter, StatsStore } from '../store'

/**
 * Traffic counters on Postgres: held in memory per instance and added to the shared rows every `flushMs` (one
 * statement per flush), so /stats converges across instances within a flush; paid calls and revenue come from
 * the ledger and are exact at once.
 */
export class PgStats implements StatsStore {
  private batch: CounterBatch
  private writer: AsyncBatchWriter<PendingCounters>

  constructor(
    private sql: SQL,
    flushMs = 1000,
    now = () => new Date(),
    onDropped?: OnDropped,
  ) {
    this.batch = new CounterBatch(now)
    this.writer = new AsyncBatchWriter(this.batch, (batch) => this.write(batch), flushMs, onDropped)
  }

  record(slug: string, add: Partial<Record<Counter, number>>): void {
    this.batch.add(slug, add)
  }

  /** Adds pending increments in one statement; on failure they are kept for the next flush. */
  flush(): Promise<void> {
    return this.writer.flush()
  }

  private async write(batch: PendingCounters): Promise<void> {
    const keys = [...batch.keys()]
    const col = (c: Counter) => keys.map((k) => batch.get(k)![c]).join(',')
    await this.sql`
      INSERT INTO stats_daily (day, slug, calls, errors, tokens, demo_calls)
      SELECT split_part(k, '|', 1), substr(k, strpos(k, '|') + 1), c, e, t, d
      FROM unnest(string_to_array(${keys.join('\n')}, E'\n'), string_to_array(${col('calls')}, ',')::bigint[],
                  string_to_array(${col('errors')}, ',')::bigint[], string_to_array(${col('tokens')}, ',')::bigint[],
                  string_to_array(${col('demo_calls')}, ',')::bigint[]) AS x(k, c, e, t, d)
      ON CONFLICT (day, slug) DO UPDATE SET calls = stats_daily.calls + excluded.calls, errors = stats_daily.errors + excluded.errors,
        tokens = stats_daily.tokens + excluded.tokens, demo_calls = stats_daily.demo_calls + excluded.demo_calls`
  }

  async rows(days = 30): Promise<Array<{ day: string; slug: string } & Record<Counter, number>>> {
    await this.flush()
    const since = this.batch.since(days)
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

  close(): Promise<void> {
    return this.writer.close()
  }
}
