/**
 * The error-count store's contract on both engines (embedded SQLite and a real Postgres started from npm): counts
 * are held in memory until a flush (no write per error), reads include what is pending, days are UTC days, codes
 * are normalised, a failed write keeps its counts for the next flush, and two instances on one Postgres add up.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { ErrorCounts } from '../../runtime/db/sqlite/error-counts'
import { PgErrorCounts } from '../../runtime/db/postgres/error-counts'
import type { ErrorCountStore } from '../../runtime/db/store'
import { testPostgresPools, type TestPools } from '../support/postgres'

let pg: TestPools
beforeAll(async () => {
  pg = await testPostgresPools()
}, 60_000)
afterAll(() => pg?.stop())

interface Clock {
  ms: number
}
interface Engine {
  /** A store as one instance holds it (flushes only when told: the timer is an hour). */
  store(): ErrorCountStore
  /** Rows written to the table so far (what other instances can see). */
  written(): Promise<number>
  /** Makes the next writes fail, then heals. */
  breakWrites(): Promise<() => Promise<void>>
}

let dbs = 0
const engines: Record<'sqlite' | 'postgres', (clock: Clock) => Promise<Engine>> = {
  async sqlite(clock) {
    const db = openDatabase(':memory:')
    return {
      store: () => new ErrorCounts(db, 3_600_000, () => new Date(clock.ms)),
      written: async () =>
        (db.query('SELECT COALESCE(SUM(count), 0) AS n FROM error_codes_daily').get() as { n: number }).n,
      async breakWrites() {
        db.run('ALTER TABLE error_codes_daily RENAME TO error_codes_daily_away')
        return async () => {
          db.run('ALTER TABLE error_codes_daily_away RENAME TO error_codes_daily')
        }
      },
    }
  },
  async postgres(clock) {
    const sql = await pg.fresh(`ec${++dbs}`, 4)
    return {
      store: () => new PgErrorCounts(sql, 3_600_000, () => new Date(clock.ms)),
      written: async () => Number((await sql`SELECT COALESCE(SUM(count), 0)::int AS n FROM error_codes_daily`)[0].n),
      async breakWrites() {
        await sql`ALTER TABLE error_codes_daily RENAME TO error_codes_daily_away`
        return async () => {
          await sql`ALTER TABLE error_codes_daily_away RENAME TO error_codes_daily`
        }
      },
    }
  },
}

const DAY = 86_400_000
const T0 = Date.UTC(2026, 10, 23, 23, 59, 0)

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`error counts on ${kind}`, () => {
    test('batched: nothing is written per error; a read includes pending counts; a flush writes them once', async () => {
      const clock = { ms: T0 }
      const e = await engines[kind](clock)
      const s = e.store()
      for (let i = 0; i < 50; i++) s.record('slugify', 422, 'INVALID_INPUT')
      s.record('slugify', 402, 'PAYMENT_REFUSED')
      s.record('hash-digest', 503, 'UPSTREAM_ERROR')
      expect(await e.written()).toBe(0)
      expect(await s.rows()).toEqual([
        { slug: 'slugify', code: 'INVALID_INPUT', status: 422, count: 50 },
        { slug: 'hash-digest', code: 'UPSTREAM_ERROR', status: 503, count: 1 },
        { slug: 'slugify', code: 'PAYMENT_REFUSED', status: 402, count: 1 },
      ])
      expect(await e.written()).toBe(52)
      await s.flush() // nothing pending: no double count
      expect(await e.written()).toBe(52)
      await s.close()
    })

    test('UTC days: counts of days before the window are left out; codes that are not UPPER_SNAKE count as OTHER', async () => {
      const clock = { ms: T0 }
      const e = await engines[kind](clock)
      const s = e.store()
      s.record('slugify', 500, 'INTERNAL')
      s.record('slugify', 500, 'lower-case code')
      s.record('slugify', 500, '')
      s.record('slugify', 999, 'WEIRD_STATUS')
      await s.flush()
      clock.ms += 2 * 60_000 // the next UTC day
      s.record('slugify', 500, 'INTERNAL')
      expect(await s.rows(1)).toEqual([{ slug: 'slugify', code: 'INTERNAL', status: 500, count: 1 }])
      expect(await s.rows(2)).toEqual([
        { slug: 'slugify', code: 'INTERNAL', status: 500, count: 2 },
        { slug: 'slugify', code: 'OTHER', status: 500, count: 2 },
        { slug: 'slugify', code: 'WEIRD_STATUS', status: 500, count: 1 },
      ])
      clock.ms += 30 * DAY
      expect(await s.rows(30)).toEqual([])
      await s.close()
    })

    test('at most 64 distinct codes per service per batch', async () => {
      const e = await engines[kind]({ ms: T0 })
      const s = e.store()
      for (let i = 0; i < 100; i++) s.record('noisy', 400, `CODE_${i}`)
      s.record('quiet', 400, 'INVALID_INPUT')
      const rows = await s.rows()
      expect(rows.filter((r) => r.slug === 'noisy').length).toBe(64)
      expect(rows.find((r) => r.slug === 'quiet')?.count).toBe(1)
      await s.close()
    })

    test('the 64-code bound holds across failed writes (a failed batch merged back counts against it)', async () => {
      const e = await engines[kind]({ ms: T0 })
      const s = e.store()
      for (let i = 0; i < 64; i++) s.record('noisy', 400, `CODE_${i}`)
      const heal = await e.breakWrites()
      for (let round = 1; round <= 10; round++) {
        await expect(Promise.resolve().then(() => s.flush())).rejects.toThrow()
        for (let i = 0; i < 64; i++) s.record('noisy', 400, `ROUND_${round}_${i}`)
        s.record('noisy', 400, 'CODE_0')
      }
      await heal()
      const rows = (await s.rows()).filter((r) => r.slug === 'noisy')
      expect(rows.length).toBe(64)
      expect(rows.find((r) => r.code === 'CODE_0')?.count).toBe(11)
      expect(rows.every((r) => r.code.startsWith('CODE_'))).toBe(true)
      await s.close()
    })

    test('a failed write keeps its counts for the next flush', async () => {
      const e = await engines[kind]({ ms: T0 })
      const s = e.store()
      s.record('slugify', 422, 'INVALID_INPUT')
      s.record('slugify', 422, 'INVALID_INPUT')
      const heal = await e.breakWrites()
      await expect(Promise.resolve().then(() => s.flush())).rejects.toThrow()
      s.record('slugify', 422, 'INVALID_INPUT')
      await heal()
      expect(await s.rows()).toEqual([{ slug: 'slugify', code: 'INVALID_INPUT', status: 422, count: 3 }])
      await s.close()
    })

    test('two stores on one database (two instances) add up; close flushes', async () => {
      const e = await engines[kind]({ ms: T0 })
      const a = e.store()
      const b = e.store()
      a.record('slugify', 422, 'INVALID_INPUT')
      b.record('slugify', 422, 'INVALID_INPUT')
      b.record('slugify', 504, 'HANDLER_TIMEOUT')
      await b.close()
      expect(await a.rows()).toEqual([
        { slug: 'slugify', code: 'INVALID_INPUT', status: 422, count: 2 },
        { slug: 'slugify', code: 'HANDLER_TIMEOUT', status: 504, count: 1 },
      ])
      await a.close()
    })
  })
}
