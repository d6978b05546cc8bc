import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { Stats } from '../../runtime/db/sqlite/stats'
import { statsReport } from '../../runtime/db/report'
import { Database } from 'bun:sqlite'
import { MIGRATIONS } from '../../runtime/db/sqlite/schema'
import { DailyQuota } from '../../runtime/db/sqlite/quota'
import { Ledger } from '../../runtime/db/sqlite/ledger'
import { reservation } from '../support/reservation'

const tmp = () => mkdtempSync(join(tmpdir(), 'x402-db-'))

describe('sqlite', () => {
  test('WAL, synchronous NORMAL (FULL only for durable commits: test/db/durability.test.ts) and versioned migrations on a real file', () => {
    const dir = tmp()
    const db = openDatabase(join(dir, 'a.sqlite'))
    expect(db.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    expect(db.query('PRAGMA synchronous').get()).toEqual({ synchronous: 1 })
    expect(db.query('PRAGMA user_version').get()).toEqual({ user_version: MIGRATIONS.length })
    db.close()
    const again = openDatabase(join(dir, 'a.sqlite'))
    expect(again.query('PRAGMA user_version').get()).toEqual({ user_version: MIGRATIONS.length })
    again.close()
    rmSync(dir, { recursive: true })
  })

  test('stats are batched in memory and survive a clean shutdown', () => {
    const dir = tmp()
    const path = join(dir, 's.sqlite')
    const db = openDatabase(path)
    const stats = new Stats(db, 60_000, () => new Date('2026-11-22T10:00:00Z'))
    for (let i = 0; i < 1000; i++) stats.record('slugify', { calls: 1 })
    stats.record('slugify', { errors: 1, tokens: 5 })
    expect(db.query('SELECT COUNT(*) AS n FROM stats_daily').get()).toEqual({ n: 0 })
    stats.close()
    db.close()
    const db2 = openDatabase(path)
    const rows = new Stats(db2, 60_000, () => new Date('2026-11-22T10:00:00Z')).rows(1)
    expect(rows).toEqual([{ day: '2026-11-22', slug: 'slugify', calls: 1000, errors: 1, tokens: 5, demo_calls: 0 }])
    db2.close()
    rmSync(dir, { recursive: true })
  })

  test('the daily quota resets at UTC midnight', () => {
    const db = openDatabase(':memory:')
    let now = new Date('2026-11-22T23:59:59Z')
    const q = new DailyQuota(db, 2, () => now)
    expect([q.consume('a').allowed, q.consume('a').allowed, q.consume('a').allowed, q.consume('b').allowed]).toEqual([
      true,
      true,
      false,
      true,
    ])
    expect(q.consume('a')).toMatchObject({
      allowed: false,
      used: 2,
      remaining: 0,
      resetsAt: '2026-11-23T00:00:00.000Z',
    })
    now = new Date('2026-11-23T00:00:01Z')
    expect(q.consume('a').allowed).toBe(true)
  })

  test('the ledger reserves an authorization once until it is released', () => {
    const db = openDatabase(':memory:')
    const l = new Ledger(db)
    const r = reservation(1, {
      payer: '0xAbC0000000000000000000000000000000000001',
      nonce: '0x' + '11'.repeat(32),
      validBefore: 1,
    })
    const id = l.reserve(r)!
    expect(id).toBeGreaterThan(0)
    expect(l.reserve({ ...r, payer: r.payer.toLowerCase() })).toBeNull()
    l.transition(id, 'released', { reason: 'handler failed' })
    const id2 = l.reserve(r)!
    expect(id2).not.toBe(id)
    l.transition(id2, 'verified')
    l.transition(id2, 'settling', { tx: '0xabc' })
    l.transition(id2, 'settled')
    expect(l.reserve(r)).toBeNull()
    expect(l.get(id2)).toMatchObject({ state: 'settled', tx_hash: '0xabc' })
    expect(l.events(id2).map((e) => e.state)).toEqual(['reserved', 'verified', 'settling', 'settled'])
    expect(l.settledTotal()).toBe(1000n)
  })
})

test('a payment is settled (and counted) once, whoever gets there first', () => {
  const l = new Ledger(openDatabase(':memory:'))
  const id = l.reserve(reservation(1, { payer: '0x1', nonce: '0x2', validBefore: 1 }))!
  l.transition(id, 'settling', { tx: '0xabc' })
  expect(l.settleOnce(id, { reason: 'reconciler' })).toBe(true)
  expect(l.settleOnce(id, { tx: '0xabc' })).toBe(false)
  expect(l.events(id).filter((e) => e.state === 'settled').length).toBe(1)
})

describe('revenue from the ledger', () => {
  const res = (n: number, slug = 's', amount = '1000') => reservation(n, { slug, amount, validBefore: 1 })

  test('paid calls, revenue and gas per UTC day of settlement and per service, exact integers', () => {
    const db = openDatabase(':memory:')
    let now = Date.parse('2026-11-21T23:59:59.999Z')
    const l = new Ledger(db, () => now)
    const stats = new Stats(db, 60_000, () => new Date(now))
    const a = l.reserve(res(1, 'a', '1000'))!
    expect(l.settleOnce(a, { tx: '0x1', gasUsed: '61234', effectiveGasPrice: '1000000007' })).toBe(true)
    expect(l.settleOnce(a, { tx: '0x1', gasUsed: '1', effectiveGasPrice: '1' })).toBe(false) // once
    now = Date.parse('2026-11-22T00:00:00.000Z')
    const b = l.reserve(res(2, 'a', '9007199254740993'))! // above 2^53: summed exactly
    l.settleOnce(b, { tx: '0x2', gasUsed: '50000', effectiveGasPrice: '3' })
    const c = l.reserve(res(3, 'b', '7'))!
    l.settleOnce(c, { tx: '0x3' }) // gas unknown
    const d = l.reserve(res(4, 'b', '5'))!
    l.transition(d, 'failed') // never counted
    stats.record('a', { calls: 2 })
    const network = 'eip155:8453'
    expect(l.settledByDay(0)).toEqual([
      {
        day: '2026-11-21',
        network,
        slug: 'a',
        paid_calls: 1,
        revenue_atomic: '1000',
        gas_wei: (61234n * 1000000007n).toString(),
        protocol: 'x402',
      },
      {
        day: '2026-11-22',
        network,
        slug: 'a',
        paid_calls: 1,
        revenue_atomic: '9007199254740993',
        gas_wei: '150000',
        protocol: 'x402',
      },
      { day: '2026-11-22', network, slug: 'b', paid_calls: 1, revenue_atomic: '7', gas_wei: '0', protocol: 'x402' },
    ])
    const r = statsReport(stats, l, 30, 2000, network, new Date(now))
    expect(r.totals).toMatchObject({
      paid_calls: 3,
      revenue_atomic: '9007199254742000',
      calls: 2,
      gas_wei: (61234n * 1000000007n + 150000n).toString(),
    })
    expect(r.totals.gas_usd).toBeCloseTo((Number(61234n * 1000000007n + 150000n) / 1e18) * 2000, 9)
    expect(r.days.map((x) => [x.day, x.paid_calls, x.revenue_atomic])).toEqual([
      ['2026-11-21', 1, '1000'],
      ['2026-11-22', 2, '9007199254741000'],
    ])
    expect(r.services.map((x) => [x.slug, x.paid_calls, x.revenue_atomic, x.gas_wei])).toEqual([
      ['a', 2, '9007199254741993', (61234n * 1000000007n + 150000n).toString()],
      ['b', 1, '7', '0'],
    ])
    expect(statsReport(stats, l, 1, null, network, new Date(now)).totals).toMatchObject({
      paid_calls: 2,
      revenue_atomic: '9007199254741000',
      gas_usd: null,
    })
    expect(l.averageSettlementCost(0)).toBe((61234n * 1000000007n + 150000n) / 2n)
    stats.close()
  })

  test('migration 2 keeps the settled rows of an existing database countable', () => {
    const dir = tmp()
    const path = join(dir, 'old.sqlite')
    const old = new Database(path, { create: true })
    // the version-1 schema, as a database of the previous release has it
    const v1 = openDatabase(':memory:')
    const ddl = (
      v1
        .query(
          `SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'payments_settled' AND name NOT LIKE 'paid_results%' AND name NOT IN ('error_codes_daily', 'admin_state', 'payments_inflight', 'payments_released') AND name NOT LIKE 'channel%'`,
        )
        .all() as { sql: string }[]
    ).map((x) => x.sql)
    v1.close()
    for (const sql of ddl)
      old.exec(
        sql.replace(
          /,\s*settled_at INTEGER|,\s*gas_used INTEGER|,\s*gas_price INTEGER|,\s*protocol TEXT NOT NULL DEFAULT 'x402'/g,
          '',
        ),
      )
    old.exec(`INSERT INTO payments (payer, nonce, slug, tier, amount, network, state, request_id, valid_before, x402_version, payload, requirements, created_at, updated_at)
              VALUES ('0x1', '0x1', 'a', 'flat', '4200', 'eip155:8453', 'settled', 'r', 1, 2, '{}', '{}', 1, ${Date.parse('2026-11-22T10:00:00Z')});
              PRAGMA user_version = 1;`)
    old.close()
    const db = openDatabase(path)
    expect(db.query('PRAGMA user_version').get()).toEqual({ user_version: MIGRATIONS.length })
    expect(new Ledger(db).settledByDay(0)).toEqual([
      {
        day: '2026-11-22',
        network: 'eip155:8453',
        slug: 'a',
        paid_calls: 1,
        revenue_atomic: '4200',
        gas_wei: '0',
        protocol: 'x402',
      },
    ])
    db.close()
    rmSync(dir, { recursive: true })
  })
})
