/**
 * openStorage (runtime/db/open.ts) picks the engine from DATABASE_URL and nothing it returns is undefined on one
 * engine while typed as defined: the SQLite side (its handle, the synchronous stores) comes only through
 * `sqliteOf`, which hands out that same storage on SQLite and throws a clear error on Postgres.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../runtime/config'
import { openStorage, sqliteOf } from '../../runtime/db/open'
import { reservation } from '../support/reservation'
import { testPostgres, type LocalPostgres } from '../support/postgres'

let pg: LocalPostgres
beforeAll(async () => {
  pg = await testPostgres()
}, 60_000)
afterAll(() => pg?.stop())

const ON_POSTGRES = 'this needs the SQLite storage; the server runs on postgres (DATABASE_URL is set)'

test('sqlite (no DATABASE_URL): sqliteOf hands out the same stores, synchronous, and the handle', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'open-'))
  try {
    const storage = await openStorage(loadConfig({ DATABASE_PATH: join(dir, 'api.sqlite') }).config)
    expect(storage.kind).toBe('sqlite')
    const s = sqliteOf(storage)
    expect(sqliteOf({ storage })).toBe(s)
    expect<unknown>(s).toBe(storage)
    const id = s.ledger.reserve(reservation(1)) // a plain value, no promise
    expect(typeof id).toBe('number')
    expect(s.ledger.get(id!)).toMatchObject({ state: 'reserved', amount: '1000' })
    expect(s.db.query('SELECT COUNT(*) AS n FROM payments').get()).toEqual({ n: 1 })
    expect(await storage.ping()).toBe(true)
    await storage.close()
    s.db.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('postgres (DATABASE_URL): the same contract answers; sqliteOf throws instead of handing out undefined', async () => {
  const storage = await openStorage(loadConfig({ DATABASE_URL: await pg.createDatabase('open') }).config)
  try {
    expect(storage.kind).toBe('postgres')
    expect('db' in storage).toBe(false)
    expect(() => sqliteOf(storage)).toThrow(ON_POSTGRES)
    expect(() => sqliteOf({ storage })).toThrow(ON_POSTGRES)
    const id = await storage.ledger.reserve(reservation(1))
    expect(id).toBeNumber()
    expect(await storage.ledger.get(id!)).toMatchObject({ state: 'reserved', amount: '1000' })
    expect(await storage.ping()).toBe(true)
  } finally {
    await storage.close()
  }
})
