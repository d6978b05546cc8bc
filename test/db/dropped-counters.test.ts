/**
 * Counters lost at shutdown leave one warning line (runtime/db/batched.ts onDropped, wired by openStorage): when the
 * last flush at close() fails, the operator's log says `counters dropped at shutdown` with the store and how many
 * rows, never the rows themselves; a close whose flush succeeds, or has nothing pending, logs nothing of the kind.
 * SQLite through boot (the server's own logger), Postgres through openStorage on a real Postgres.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { loadConfig } from '../../runtime/config'
import { openStorage } from '../../runtime/db/open'
import { AsyncBatchWriter, SyncBatchWriter, type Batch } from '../../runtime/db/batched'
import { startApp } from '../support/server'
import { testPostgresPools, type TestPools } from '../support/postgres'
import { sqliteOf } from '../../runtime/db/open'

const DROPPED = 'counters dropped at shutdown'
const parse = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>)

let pg: TestPools
beforeAll(async () => {
  pg = await testPostgresPools()
}, 120_000)
afterAll(() => pg?.stop())

test('sqlite (booted server): a failed last stats flush logs one warning with the row count, not the rows', async () => {
  const s = await startApp()
  const { stats, errorCounts } = s.booted.storage
  stats.record('secret-slug-one', { calls: 2 })
  stats.record('secret-slug-two', { calls: 1, errors: 1 })
  errorCounts.record('secret-slug-one', 422, 'INVALID_INPUT')
  sqliteOf(s.booted).db.run('ALTER TABLE stats_daily RENAME TO stats_daily_away')
  await s.stop()
  const dropped = parse(s.logs).filter((l) => l.msg === DROPPED)
  expect(dropped).toHaveLength(1)
  expect(dropped[0]).toMatchObject({ level: 'warn', store: 'stats', rows: 2 })
  const line = s.logs.find((l) => l.includes(DROPPED))!
  expect(line).not.toContain('secret-slug')
  expect(line).not.toContain('INVALID_INPUT')
})

test('sqlite (booted server): a clean shutdown logs no dropped counters', async () => {
  const s = await startApp()
  s.booted.storage.stats.record('slugify', { calls: 1 })
  await s.stop()
  expect(s.logs.some((l) => l.includes(DROPPED))).toBe(false)
})

test('postgres: failed last flushes of both batched stores each log one warning; the storage still closes', async () => {
  const url = await pg.pg.createDatabase('dropped')
  const warnings: Array<{ msg: string; fields?: Record<string, unknown> }> = []
  const log = { warn: (msg: string, fields?: Record<string, unknown>) => warnings.push({ msg, fields }) }
  const storage = await openStorage(loadConfig({ DATABASE_URL: url }).config, log)
  const other = await pg.pool(url, 2)
  storage.stats.record('slugify', { calls: 1 })
  for (const code of ['A', 'B', 'C']) storage.errorCounts.record('slugify', 400, code)
  await other`ALTER TABLE stats_daily RENAME TO stats_daily_away`
  await other`ALTER TABLE error_codes_daily RENAME TO error_codes_daily_away`
  await storage.close()
  expect(warnings).toEqual([
    { msg: DROPPED, fields: { store: 'stats', rows: 1 } },
    { msg: DROPPED, fields: { store: 'error counts', rows: 3 } },
  ])
  await other`ALTER TABLE stats_daily_away RENAME TO stats_daily`
  await other`ALTER TABLE error_codes_daily_away RENAME TO error_codes_daily`
  expect(Number((await other`SELECT count(*)::int AS n FROM stats_daily`)[0].n)).toBe(0)
})

/** A batch of strings whose write fails while `failing` is set. */
function listBatch() {
  let pending: string[] = []
  const batch: Batch<string[]> = {
    take: () => {
      if (!pending.length) return undefined
      const b = pending
      pending = []
      return b
    },
    restore: (b) => void (pending = [...b, ...pending]),
  }
  return { batch, add: (s: string) => pending.push(s) }
}

test('writers: onDropped hears the count only when the last flush fails (sync and async alike)', async () => {
  for (const async of [false, true]) {
    const heard: number[] = []
    let failing = true
    const { batch, add } = listBatch()
    const write = (b: string[]) => {
      if (failing) throw new Error(`down (${b.length})`)
    }
    const open = () =>
      async
        ? new AsyncBatchWriter(
            batch,
            async (b) => write(b),
            3_600_000,
            (n) => heard.push(n),
          )
        : new SyncBatchWriter(batch, write, 3_600_000, (n) => heard.push(n))
    add('a')
    add('b')
    add('c')
    await open().close()
    expect(heard).toEqual([3])
    failing = false
    add('d')
    await open().close() // written: nothing dropped
    await open().close() // nothing pending
    expect(heard).toEqual([3])
  }
})
