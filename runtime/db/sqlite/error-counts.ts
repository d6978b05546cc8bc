import type { Database } from 'bun:sqlite'
import { utcDay } from './connect'
import { SyncBatchWriter, type Batch, type OnDropped } from '../batched'
import type { ErrorCountRow, ErrorCountStore } from '../store'

const CODE = /^[A-Z][A-Z0-9_]{0,63}$/
/** Distinct (code, status) pairs kept per service per batch: a misbehaving service cannot grow the batch unbounded. */
const MAX_CODES_PER_SLUG = 64

/**
 * Increments held in memory between flushes (shared by the SQLite and Postgres stores): key `day|slug|code|status`.
 * Codes that are not UPPER_SNAKE are counted as OTHER.
 */
export type PendingCount = { day: string; slug: string; code: string; status: number; count: number }

export class ErrorCountBatch implements Batch<PendingCount[]> {
  private pending = new Map<string, number>()
  private perSlug = new Map<string, number>()

  constructor(private now: () => Date) {}

  add(slug: string, status: number, code: string): void {
    if (!CODE.test(code)) code = 'OTHER'
    if (!Number.isInteger(status) || status < 400 || status > 599) status = 500
    this.count(`${utcDay(this.now())}|${slug}|${code}|${status}`, slug, 1)
  }

  /** Adds `n` to `key`; a key new to the batch is admitted only while its service has fewer than the bound. */
  private count(key: string, slug: string, n: number): void {
    const had = this.pending.get(key)
    if (had !== undefined) this.pending.set(key, had + n)
    else if ((this.perSlug.get(slug) ?? 0) < MAX_CODES_PER_SLUG) {
      this.pending.set(key, n)
      this.perSlug.set(slug, (this.perSlug.get(slug) ?? 0) + 1)
    }
  }

  /** Takes the batch (the store writes it, and gives it back with `restore` when the write failed). */
  take(): PendingCount[] | undefined {
    if (!this.pending.size) return undefined
    const out = [...this.pending].map(([k, count]) => {
      const [day, slug, code, status] = k.split('|')
      return { day, slug, code, status: Number(status), count }
    })
    this.pending = new Map()
    this.perSlug = new Map()
    return out
  }

  /**
   * Merges a batch whose write failed back in, under the same bound as `add` (the keys that came since count
   * against it): however many flushes fail, a service never holds more than MAX_CODES_PER_SLUG keys.
   */
  restore(rows: PendingCount[]): void {
    for (const r of rows) this.count(`${r.day}|${r.slug}|${r.code}|${r.status}`, r.slug, r.count)
  }

  /** The first day of a `days`-day window ending today (UTC). */
  since(days: number): string {
    return utcDay(new Date(this.now().getTime() - (days - 1) * 86_400_000))
  }
}

/** Largest count first, then by service, code and status (the same order on both engines). */
export const byCount = (a: ErrorCountRow, b: ErrorCountRow) =>
  b.count - a.count ||
  (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) ||
  (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
  a.status - b.status

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
