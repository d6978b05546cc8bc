import type { Database } from 'bun:sqlite'
import { ErrorCountBatch, SyncBatchWriter, type OnDropped, type PendingCount } from '../batched'
import { byCount } from '../shared'
import type { ErrorCountRow, ErrorCountStore } from '../store'

/** Error answers by code on SQLite: batched in memory, one transaction per flush (every `flushMs`, and on close). */
export class ErrorCounts implements ErrorCountStore {
  private batch: ErrorCountBatch
  private writer: SyncBatchWriter<PendingCount[]>
  private read

  constructor(db: Database, flushMs = 1000, now = () => new Date(), onDropped?: OnDropped) {
    this.batch = new ErrorCountBatch(now)
    const upsert = db.prepare(
      `INSERT INTO error_codes_daily (day, slug, code, status, count) VALUES ($day, $slug, $code, $status, $count)
       ON CONFLICT (day, slug, code, status) DO UPDATE SET count = count + excluded.count`,
    )
    this.read = db.prepare(
      `SELECT slug, code, status, SUM(count) AS count FROM error_codes_daily WHERE day >= ? GROUP BY slug, code, status`,
    )
    const write = db.transaction((rows: PendingCount[]) => {
      for (const r of rows) upsert.run(r)
    })
    this.writer = new SyncBatchWriter(this.batch, (rows) => void write(rows), flushMs, onDropped)
  }

  record(slug: string, status: number, code: string): void {
    this.batch.add(slug, status, code)
  }

  /** Writes the pending counts in one transaction; on failure they are kept for the next flush. */
  flush(): void {
    this.writer.flush()
  }

  rows(days = 30): ErrorCountRow[] {
    this.flush()
    return (this.read.all(this.batch.since(days)) as ErrorCountRow[]).sort(byCount)
  }

  close(): void {
    this.writer.close()
  }
}
