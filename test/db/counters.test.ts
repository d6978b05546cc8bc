/**
 * Traffic counters on both engines keep a batch whose write failed (runtime/db/batched.ts): the flush that fails
 * throws, the increments stay pending, and the next flush after the table is back writes them exactly once. A failed
 * last flush at close() is dropped on both engines, so the storage's other closes still run.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import { loadConfig } from '../../runtime/config'
import { openStorage, sqliteOf } from '../../runtime/db/open'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { Stats } from '../../runtime/db/sqlite/stats'
import { PgStats } from '../../runtime/db/postgres/stats'
import type { StatsStore } from '../../runtime/db/store'
import { testPostgresPools, type TestPools } from '../support/postgres'

let pg: TestPools
beforeAll(async () => {
  pg = await testPostgresPools()
}, 60_000)
afterAll(() => pg?.stop())

const now = () => new Date('2026-11-22T10:00:00Z')
let dbs = 0
type Setup = { stats: StatsStore; run(statement: string): Promise<unknown>; written(): Promise<number> }
const engines: Record<'sqlite' | 'postgres', () => Promise<Setup>> = {
  async sqlite() {
    const db = openDatabase(':memory:')
    return {
      stats: new Stats(db, 3_600_000, now),
      run: async (q) => db.run(q),
      written: async () => (db.query('SELECT COALESCE(SUM(calls), 0) AS n FROM stats_daily').get() as { n: number }).n,
    }
  },
  async postgres() {
    const sql = await pg.fresh(`counters${++dbs}`, 4)
    return {
      stats: new PgStats(sql, 3_600_000, now),
      run: (q) => sql.unsafe(q),
      written: async () => Number((await sql`SELECT COALESCE(SUM(calls), 0)::int AS n FROM stats_daily`)[0].n),
    }
  },
}

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`${kind}: a failed flush keeps its increments; the next flush writes them once`, async () => {
    const e = await engines[kind]()
    e.stats.record('slugify', { calls: 3, errors: 1 })
    await e.run('ALTER TABLE stats_daily RENAME TO stats_daily_away')
    let failed = false
    try {
      await e.stats.flush()
    } catch {
      failed = true
    }
    expect(failed).toBe(true)
    await e.run('ALTER TABLE stats_daily_away RENAME TO stats_daily')
    expect(await e.written()).toBe(0)
    e.stats.record('slugify', { calls: 2 })
    expect(await e.stats.rows(1)).toEqual([
      { day: '2026-11-22', slug: 'slugify', calls: 5, errors: 1, tokens: 0, demo_calls: 0 },
    ])
    expect(await e.written()).toBe(5)
    await e.stats.flush() // nothing pending: no double count
    expect(await e.written()).toBe(5)
    await e.stats.close()
  })
}

for (const kind of ['sqlite', 'postgres'] as const) {
  test(`${kind}: close() with a failing database drops the last batch instead of throwing`, async () => {
    const e = await engines[kind]()
    e.stats.record('slugify', { calls: 1 })
    await e.run('ALTER TABLE stats_daily RENAME TO stats_daily_away')
    await expect(Promise.resolve().then(() => e.stats.close())).resolves.toBeUndefined()
    await e.run('ALTER TABLE stats_daily_away RENAME TO stats_daily')
    expect(await e.written()).toBe(0)
  })
}

test('sqlite: a failing stats write at shutdown does not stop storage.close() from flushing the error counts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'counters-close-'))
  try {
    const path = join(dir, 'api.sqlite')
    const storage = await openStorage(loadConfig({ DATABASE_PATH: path }).config)
    storage.stats.record('slugify', { calls: 1 })
    storage.errorCounts.record('slugify', 422, 'INVALID_INPUT')
    sqliteOf(storage).db.run('ALTER TABLE stats_daily RENAME TO stats_daily_away')
    await storage.close()
    sqliteOf(storage).db.close()
    const db = new Database(path, { readonly: true })
    expect(db.query('SELECT slug, code, status, count FROM error_codes_daily').all()).toEqual([
      { slug: 'slugify', code: 'INVALID_INPUT', status: 422, count: 1 },
    ])
    db.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
