import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../runtime/db/sqlite'
import { Stats, summarize } from '../runtime/db/stats'
import { DailyQuota } from '../runtime/db/quota'
import { Ledger } from '../runtime/db/ledger'

const tmp = () => mkdtempSync(join(tmpdir(), 'x402-db-'))

describe('sqlite', () => {
  test('WAL, synchronous FULL and versioned migrations on a real file', () => {
    const dir = tmp()
    const db = openDatabase(join(dir, 'a.sqlite'))
    expect(db.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    expect(db.query('PRAGMA synchronous').get()).toEqual({ synchronous: 2 })
    expect(db.query('PRAGMA user_version').get()).toEqual({ user_version: 2 })
    db.close()
    const again = openDatabase(join(dir, 'a.sqlite'))
    expect(again.query('PRAGMA user_version').get()).toEqual({ user_version: 2 })
    again.close()
    rmSync(dir, { recursive: true })
  })

  test('stats are batched in memory and survive a clean shutdown', () => {
    const dir = tmp()
    const path = join(dir, 's.sqlite')
    const db = openDatabase(path)
    const stats = new Stats(db, 60_000, () => new Date('2026-11-22T10:00:00Z'))
    for (let i = 0; i < 1000; i++) stats.record('slugify', { calls: 1 })
    stats.record('slugify', { paid_calls: 1, revenue_atomic: 1000 })
    expect(db.query('SELECT COUNT(*) AS n FROM stats_daily').get()).toEqual({ n: 0 })
    stats.close()
    db.close()
    const db2 = openDatabase(path)
    const rows = new Stats(db2, 60_000, () => new Date('2026-11-22T10:00:00Z')).rows(1)
    expect(summarize(rows)).toEqual({ calls: 1000, paid_calls: 1, revenue_usd: 0.001, errors: 0, tokens: 0, demo_calls: 0 })
    db2.close()
    rmSync(dir, { recursive: true })
  })

  test('the daily quota resets at UTC midnight', () => {
    const db = openDatabase(':memory:')
    let now = new Date('2026-11-22T23:59:59Z')
    const q = new DailyQuota(db, 2, () => now)
    expect([q.consume('a').allowed, q.consume('a').allowed, q.consume('a').allowed, q.consume('b').allowed]).toEqual([true, true, false, true])
    expect(q.consume('a')).toMatchObject({ allowed: false, used: 2, remaining: 0, resetsAt: '2026-11-23T00:00:00.000Z' })
    now = new Date('2026-11-23T00:00:01Z')
    expect(q.consume('a').allowed).toBe(true)
  })

  test('the ledger reserves an authorization once until it is released', () => {
    const db = openDatabase(':memory:')
    const l = new Ledger(db)
    const r = { payer: '0xAbC0000000000000000000000000000000000001', nonce: '0x' + '11'.repeat(32), slug: 's', tier: 'flat', amount: '1000', network: 'eip155:8453', requestId: 'r', validBefore: 1, x402Version: 2, payload: {}, requirements: {} }
    const id = l.reserve(r)!
    expect(id).toBeGreaterThan(0)
    expect(l.reserve({ ...r, payer: r.payer.toLowerCase() })).toBeNull()
    l.transition(id, 'released', { reason: 'handler failed' })
    const id2 = l.reserve(r)!
    expect(id2).not.toBe(id)
    l.transition(id2, 'verified'); l.transition(id2, 'settling', { tx: '0xabc' }); l.transition(id2, 'settled')
    expect(l.reserve(r)).toBeNull()
    expect(l.get(id2)).toMatchObject({ state: 'settled', tx_hash: '0xabc' })
    expect(l.events(id2).map((e) => e.state)).toEqual(['reserved', 'verified', 'settling', 'settled'])
    expect(l.settledTotal()).toBe(1000n)
  })
})

test('a payment is settled (and counted) once, whoever gets there first', () => {
  const l = new Ledger(openDatabase(':memory:'))
  const id = l.reserve({ payer: '0x1', nonce: '0x2', slug: 's', tier: 'flat', amount: '1000', network: 'eip155:8453', requestId: 'r', validBefore: 1, x402Version: 2, payload: {}, requirements: {} })!
  l.transition(id, 'settling', { tx: '0xabc' })
  expect(l.settleOnce(id, { reason: 'reconciler' })).toBe(true)
  expect(l.settleOnce(id, { tx: '0xabc' })).toBe(false)
  expect(l.events(id).filter((e) => e.state === 'settled').length).toBe(1)
})
