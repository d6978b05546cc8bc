/**
 * The console's read queries on a real SQLite file: payments without and with settlement gas (settled_at,
 * gas_used, gas_price are written by the settle-once transaction).
 * Upstream health counters fed by real HTTP calls to a loopback upstream.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { Ledger } from '../../runtime/db/sqlite/ledger'
import { AdminQueries } from '../../runtime/db/sqlite/admin-queries'
import { paymentQuery } from '../../runtime/admin/routes'
import { createUpstreams } from '../../runtime/net/upstream'
import { upstreamHealth } from '../../runtime/net/upstream-health'

const dir = mkdtempSync(join(tmpdir(), 'admin-q-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0)
function seed(path: string) {
  const db = openDatabase(join(dir, path))
  let now = T0
  const ledger = new Ledger(db, () => now)
  const add = (slug: string, amount: string, n: string) =>
    ledger.reserve({
      payer: '0x' + 'ab'.repeat(20),
      nonce: '0x' + n.repeat(64),
      slug,
      tier: 'flat',
      amount,
      network: 'eip155:8453',
      requestId: 'req_' + n,
      validBefore: 0,
      x402Version: 2,
      payload: { payload: { signature: '0xSECRETSIG' } },
      requirements: {},
    })!
  const a = add('slugify', '1000', '1')
  ledger.transition(a, 'settling', { tx: '0x' + '1'.repeat(64) })
  ledger.settleOnce(a, { tx: '0x' + '1'.repeat(64) })
  now = T0 + 86_400_000 // next day
  const b = add('slugify', '2500', '2')
  ledger.settleOnce(b, { tx: '0x' + '2'.repeat(64) })
  const c = add('hash-digest', '3000', '3')
  ledger.settleOnce(c, { tx: '0x' + '3'.repeat(64) })
  const d = add('hash-digest', '3000', '4')
  ledger.transition(d, 'released', { reason: 'handler 502 UPSTREAM_ERROR' })
  const e = add('hash-digest', '3000', '5')
  ledger.transition(e, 'released', { reason: 'handler 502 UPSTREAM_ERROR' })
  const f = add('slugify', '1000', '6')
  ledger.transition(f, 'pending', { tx: '0x' + '6'.repeat(64), reason: 'settlement_pending' })
  db.run(
    `INSERT INTO demo_quota (day, client, count) VALUES ('2026-11-21', '1.1.1.1', 3), ('2026-11-21', '2.2.2.2', 1)`,
  )
  return { db, ids: { a, b, c, d, e, f } }
}
const clock = () => new Date(T0 + 86_400_000 + 3_600_000)

describe('admin queries', () => {
  test('list, filters, no signed payload, money per day and service, failures by code, quota', () => {
    const { db } = seed('plain.sqlite')
    const q = new AdminQueries(db, clock)
    const all = q.payments({ limit: 50 })
    expect(all.map((p) => p.id)).toEqual([6, 5, 4, 3, 2, 1])
    expect(JSON.stringify(all)).not.toContain('SECRETSIG')
    expect(all[5]).toMatchObject({
      state: 'settled',
      slug: 'slugify',
      amount: '1000',
      amount_usd: 0.001,
      tx_hash: '0x' + '1'.repeat(64),
      gas_used: null,
      gas_cost_wei: null,
      settled_at: '2026-11-20T12:00:00.000Z',
    })
    expect(q.payments({ limit: 2 }).length).toBe(2)
    expect(q.payments({ limit: 50, state: 'released' }).map((p) => p.id)).toEqual([5, 4])
    expect(q.payments({ limit: 50, slug: 'slugify', state: 'settled' }).map((p) => p.id)).toEqual([2, 1])
    expect(q.unsettledPayments().map((p) => p.id)).toEqual([6])
    expect(q.stateCounts()).toEqual({ settled: 3, released: 2, pending: 1 })
    const m = q.money(30, 'eip155:8453')
    expect(m.days).toEqual([
      { day: '2026-11-20', revenue_atomic: '1000', revenue_usd: 0.001, gas_wei: '0', settled: 1 },
      { day: '2026-11-21', revenue_atomic: '5500', revenue_usd: 0.0055, gas_wei: '0', settled: 2 },
    ])
    expect(m.services.map((s) => [s.slug, s.revenue_atomic, s.settled])).toEqual([
      ['slugify', '3500', 2],
      ['hash-digest', '3000', 1],
    ])
    expect(q.paidFailures(30)).toEqual([{ slug: 'hash-digest', code: 'UPSTREAM_ERROR', status: 502, count: 2 }])
    expect(q.demoQuota(30)).toEqual([{ day: '2026-11-21', clients: 2, calls: 4 }])
    expect(q.events(6).map((e) => e.state)).toEqual(['reserved', 'pending'])
    // #24: the same authorization settled on a testnet is its own payment and its own figure, never added in
    const testnet = new Ledger(db, () => T0 + 86_400_000)
    const t = testnet.reserve({
      payer: '0x' + 'ab'.repeat(20),
      nonce: '0x' + '1'.repeat(64),
      slug: 'slugify',
      tier: 'flat',
      amount: '1000000',
      network: 'eip155:84532',
      requestId: 'req_t',
      validBefore: 0,
      x402Version: 2,
      payload: {},
      requirements: {},
    })!
    testnet.settleOnce(t, { tx: '0x' + '7'.repeat(64) })
    const both = q.money(30, 'eip155:8453')
    expect(both.days).toEqual(m.days)
    expect(both.services).toEqual(m.services)
    expect(both.networks).toEqual([
      { network: 'eip155:8453', revenue_atomic: '6500', revenue_usd: 0.0065, gas_wei: '0', settled: 3 },
      { network: 'eip155:84532', revenue_atomic: '1000000', revenue_usd: 1, gas_wei: '0', settled: 1 },
    ])
    expect(q.money(30, 'eip155:84532').services).toEqual([
      expect.objectContaining({ slug: 'slugify', revenue_atomic: '1000000', settled: 1 }),
    ])
    db.close()
  })

  test('with settlement gas: gas cost = gas used × price, days by settled_at', () => {
    const { db, ids } = seed('gas.sqlite')
    // a: 52_000 gas at 0.012 gwei, settled a day later than its last update says
    db.run(`UPDATE payments SET gas_used = '52000', gas_price = '12000000', settled_at = ? WHERE id = ?`, [
      T0 + 86_400_000,
      ids.a,
    ])
    db.run(`UPDATE payments SET gas_used = '61000', gas_price = '10000000' WHERE id = ?`, [ids.c])
    const q = new AdminQueries(db, clock)
    const a = q.payment(ids.a)!
    expect(a).toMatchObject({
      gas_used: '52000',
      gas_price_wei: '12000000',
      gas_cost_wei: '624000000000',
      settled_at: '2026-11-21T12:00:00.000Z',
    })
    expect(q.payment(ids.b)!.gas_cost_wei).toBeNull()
    const m = q.money(30, 'eip155:8453')
    expect(m.days).toEqual([
      {
        day: '2026-11-21',
        revenue_atomic: '6500',
        revenue_usd: 0.0065,
        gas_wei: String(624_000_000_000 + 610_000_000_000),
        settled: 3,
      },
    ])
    expect(m.services.find((s) => s.slug === 'hash-digest')).toMatchObject({
      gas_wei: '610000000000',
      avg_gas_used: 61000,
    })
    expect(m.services.find((s) => s.slug === 'slugify')).toMatchObject({ gas_wei: '624000000000', avg_gas_used: 52000 })
    db.close()
  })

  test('query parameter validation', () => {
    expect(paymentQuery(new URLSearchParams(''))).toEqual({ ok: true, limit: 50, state: undefined, slug: undefined })
    expect(paymentQuery(new URLSearchParams('limit=500&state=pending&slug=hash-digest'))).toEqual({
      ok: true,
      limit: 500,
      state: 'pending',
      slug: 'hash-digest',
    })
    for (const bad of ['limit=-1', 'limit=1.5', 'limit=', 'state=', 'state=SETTLED', 'slug=a/b', 'x=1'])
      expect(paymentQuery(new URLSearchParams(bad)).ok).toBe(false)
  })
})

describe('upstream health', () => {
  const upstream = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (req) =>
      new URL(req.url).pathname === '/bad'
        ? new Response('down for maintenance', { status: 503 })
        : Response.json({ ok: true }),
  })
  afterAll(() => upstream.stop(true))

  test('counts requests, cache hits and failures, and keeps the last error', async () => {
    const up = createUpstreams({ 'health-probe': { url: `http://127.0.0.1:${upstream.port}` } })('health-probe')
    await up.getJson('/good', {}, { ttlMs: 60_000 })
    await up.getJson('/good', {}, { ttlMs: 60_000 })
    await up.getJson('/good', {}, { ttlMs: 60_000 })
    await expect(up.getJson('/bad')).rejects.toThrow('HTTP 503')
    const h = upstreamHealth().find((u) => u.name === 'health-probe')!
    expect(h).toMatchObject({ requests: 2, cache_hits: 2, failures: 1, hit_rate: 0.5 })
    expect(h.last_error!.message).toContain('HTTP 503: down for maintenance')
    expect(h.last_ok_at).not.toBeNull()
  })
})
