import type { SQL } from 'bun'
import { AsyncBatchWriter, ErrorCountBatch, type OnDropped, type PendingCount } from '../batched'
import { byCount } from '../shared'
import type { ErrorCountRow, ErrorCountStore } from '../store'

/**
 * Error answers by code on Postgres: held in memory per instance and added to the shared rows every `flushMs`
 * (one statement per flush), so the console shows every instance's counts, converged within a flush.
 */
export class PgErrorCounts implements ErrorCountStore {
  private batch: ErrorCountBatch
  private writer: AsyncBatchWriter<PendingCount[]>

  constructor(
    private sql: SQL,
    flushMs = 1000,
    now = () => new Date(),
    onDropped?: OnDropped,
  ) {
    this.batch = new ErrorCountBatch(now)
    this.writer = new AsyncBatchWriter(this.batch, (rows) => this.write(rows), flushMs, onDropped)
  }

  record(slug: string, status: number, code: string): void {
    this.batch.add(slug, status, code)
  }

  /** Adds the pending counts in one statement; on failure they are kept for the next flush. */
  flush(): Promise<void> {
    return this.writer.flush()
  }

  private async write(rows: PendingCount[]): Promise<void> {
    const col = (f: (r: PendingCount) => string | number) => rows.map(f).join('\n')
    await this.sql`
      INSERT INTO error_codes_daily (day, slug, code, status, count)
      SELECT d, s, c, st, n
      FROM unnest(string_to_array(${col((r) => r.day)}, E'\n'), string_to_array(${col((r) => r.slug)}, E'\n'),
                  string_to_array(${col((r) => r.code)}, E'\n'), string_to_array(${col((r) => r.status)}, E'\n')::integer[],
                  string_to_array(${col((r) => r.count)}, E'\n')::bigint[]) AS x(d, s, c, st, n)
      ON CONFLICT (day, slug, code, status) DO UPDATE SET count = error_codes_daily.count + excluded.count`
  }

  async rows(days = 30): Promise<ErrorCountRow[]> {
    await this.flush()
    const rows = await this.sql`
      SELECT slug, code, status, SUM(count)::text AS count FROM error_codes_daily
      WHERE day >= ${this.batch.since(days)} GROUP BY slug, code, status`
    return rows
      .map((r: Record<string, string | number>) => ({
        slug: String(r.slug),
        code: String(r.code),
        status: Number(r.status),
        count: Number(r.count),
      }))
      .sort(byCount)
  }

  close(): Promise<void> {
    return this.writer.close()
  }
}
