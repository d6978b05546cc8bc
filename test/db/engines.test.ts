/**
 * The storage contract, run against both engines: the embedded SQLite and a real Postgres (started from npm by
 * scripts/ensure-postgres.ts). Same inputs, same expected answers; concurrency is real (Postgres calls run in
 * parallel over the pool).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { Ledger } from '../../runtime/db/sqlite/ledger'
import { Stats } from '../../runtime/db/sqlite/stats'
import { DailyQuota } from '../../runtime/db/sqlite/quota'
import { ResultStore } from '../../runtime/db/sqlite/results'
import { loadStatsReport } from '../../runtime/db/report'
import type {
  CooldownStore,
  LedgerStore,
  QuotaStore,
  Reservation,
  ResultStoreLike,
  StatsStore,
} from '../../runtime/db/store'
import { PayerCooldowns } from '../../runtime/db/cooldowns'
import { PgCooldowns } from '../../runtime/db/postgres/cooldowns'
import { PG_MIGRATIONS } from '../../runtime/db/postgres/schema'
import { DatabaseUnavailable, openPostgres } from '../../runtime/db/postgres/connect'
import { PgLedger } from '../../runtime/db/postgres/ledger'
import { PgStats } from '../../runtime/db/postgres/stats'
import { PgQuota } from '../../runtime/db/postgres/quota'
import { PgResultStore } from '../../runtime/db/postgres/results'
import { PgThrottle } from '../../runtime/db/postgres/throttle'
import { testPostgresPools, type TestPools } from '../support/postgres'
import { reservation } from '../support/reservation'

let pg: TestPools
beforeAll(async () => {
  pg = await testPostgresPools()
}, 60_000)
afterAll(() => pg?.stop())

interface Clock {
  ms: number
}
interface Engine {
  ledger: LedgerStore
  stats: StatsStore
  quota(limit: number): QuotaStore
  results(maxTotalBytes?: number): ResultStoreLike
  /** Payer cool-downs as the gate uses them on this engine (in memory on SQLite, a shared table on Postgres). */
  cooldowns(baseMs: number, maxMs: number): CooldownStore
}

let dbs = 0
const engines: Record<'sqlite' | 'postgres', (clock: Clock) => Promise<Engine>> = {
  async sqlite(clock) {
    const db = openDatabase(':memory:')
    return {
      ledger: new Ledger(db, () => clock.ms),
      stats: new Stats(db, 60_000, () => new Date(clock.ms)),
      quota: (limit) => new DailyQuota(db, limit, () => new Date(clock.ms)),
      results: (maxTotalBytes = 1 << 20) =>
        new ResultStore(db, { maxBodyBytes: 1000, maxTotalBytes, flushMs: 0 }, () => Math.floor(clock.ms / 1000)),
      cooldowns: (baseMs, maxMs) => new PayerCooldowns(() => clock.ms, baseMs, maxMs),
    }
  },
  async postgres(clock) {
    const sql = await pg.fresh(`t${++dbs}`, 10)
    return {
      ledger: new PgLedger(sql, 'test-instance', () => clock.ms),
      stats: new PgStats(sql, 60_000, () => new Date(clock.ms)),
      quota: (limit) => new PgQuota(sql, limit, () => new Date(clock.ms)),
      results: (maxTotalBytes = 1 << 20) =>
        new PgResultStore(sql, { maxBodyBytes: 1000, maxTotalBytes }, () => Math.floor(clock.ms / 1000)),
      cooldowns: (baseMs, maxMs) => new PgCooldowns(sql, () => clock.ms, baseMs, maxMs),
    }
  },
}

const res = (n: number, slug = 's', amount = '1000') => reservation(n, { slug, amount, payload: { n } })

describe.each(['sqlite', 'postgres'] as const)('%s', (kind) => {
  test('an authorization is reserved once until released, even by 20 concurrent callers', async () => {
    const e = await engines[kind]({ ms: Date.now() })
    const r = { ...res(1), payer: '0xAbC0000000000000000000000000000000000001' }
    const ids = await Promise.all(Array.from({ length: 20 }, () => e.ledger.reserve(r)))
    const won = ids.filter((x) => x !== null)
    expect(won.length).toBe(1)
    const id = won[0]!
    expect(await e.ledger.reserve({ ...r, payer: r.payer.toLowerCase() })).toBeNull()
    await e.ledger.transition(id, 'released', { reason: 'handler failed' })
    const id2 = (await e.ledger.reserve(r))!
    expect(id2).not.toBe(id)
    await e.ledger.transition(id2, 'verified')
    await e.ledger.transition(id2, 'settling', { tx: '0xabc' })
    await e.ledger.transition(id2, 'settled')
    expect(await e.ledger.reserve(r)).toBeNull()
    expect(await e.ledger.get(id2)).toMatchObject({
      id: id2,
      state: 'settled',
      tx_hash: '0xabc',
      payer: r.payer.toLowerCase(),
      amount: '1000',
      valid_before: 2_000_000_000,
    })
    expect((await e.ledger.events(id2)).map((x) => x.state)).toEqual(['reserved', 'verified', 'settling', 'settled'])
    expect(await e.ledger.settledTotal()).toBe(1000n)
    expect((await e.ledger.byState(['released'])).map((x) => x.id)).toEqual([id])
  })

  test('#24: an authorization is (network, payer, nonce): one nonce on two chains is two payments, counted per network', async () => {
    const clock = { ms: Date.parse('2026-11-22T10:00:00Z') }
    const e = await engines[kind](clock)
    const MAIN = 'eip155:8453',
      TEST = 'eip155:84532'
    const onMain = { ...res(90, 'a', '4200'), network: MAIN }
    const onTest = { ...onMain, network: TEST, amount: '1000000' }
    const [m, t] = await Promise.all([e.ledger.reserve(onMain), e.ledger.reserve(onTest)])
    expect(m).not.toBeNull()
    expect(t).not.toBeNull()
    // still one use per chain, whoever races for it
    const again = await Promise.all(Array.from({ length: 10 }, (_, i) => e.ledger.reserve(i % 2 ? onMain : onTest)))
    expect(again).toEqual(Array(10).fill(null))
    await e.ledger.settleOnce(m!, { tx: '0x1' })
    await e.ledger.settleOnce(t!, { tx: '0x2' })
    expect(await e.ledger.settledTotal(MAIN)).toBe(4200n)
    expect(await e.ledger.settledTotal(TEST)).toBe(1000000n)
    expect(await e.ledger.settledTotal()).toBe(1004200n)
    // /stats: the money of the configured network, and each network's own figure beside it
    const r = await loadStatsReport(e.stats, e.ledger, 30, null, MAIN, new Date(clock.ms))
    expect(r.network).toBe(MAIN)
    expect(r.totals).toMatchObject({ paid_calls: 1, revenue_atomic: '4200', revenue_usd: 0.0042 })
    expect(r.services).toEqual([expect.objectContaining({ slug: 'a', paid_calls: 1, revenue_atomic: '4200' })])
    expect(r.networks).toEqual([
      { network: MAIN, paid_calls: 1, revenue_usd: 0.0042, revenue_atomic: '4200', gas_wei: '0', gas_usd: null },
      { network: TEST, paid_calls: 1, revenue_usd: 1, revenue_atomic: '1000000', gas_wei: '0', gas_usd: null },
    ])
    const onTestnet = await loadStatsReport(e.stats, e.ledger, 30, null, TEST, new Date(clock.ms))
    expect(onTestnet.totals.revenue_atomic).toBe('1000000')
    expect(onTestnet.networks.map((n) => n.network)).toEqual([TEST, MAIN])
    // a configured network without settlements is listed with zeros
    const other = await loadStatsReport(e.stats, e.ledger, 30, null, 'eip155:1', new Date(clock.ms))
    expect(other.totals.revenue_atomic).toBe('0')
    expect(other.networks[0]).toMatchObject({ network: 'eip155:1', paid_calls: 0, revenue_atomic: '0' })
    await e.stats.close()
  })

  test('a payment is settled (and counted) once when 10 settle it at the same moment', async () => {
    const e = await engines[kind]({ ms: Date.now() })
    const id = (await e.ledger.reserve(res(2)))!
    await e.ledger.transition(id, 'settling', { tx: '0xabc' })
    const wins = await Promise.all(
      Array.from({ length: 10 }, (_, i) => e.ledger.settleOnce(id, { reason: `settler ${i}` })),
    )
    expect(wins.filter(Boolean).length).toBe(1)
    expect((await e.ledger.events(id)).filter((x) => x.state === 'settled').length).toBe(1)
    await e.ledger.transition(id, 'failed') // settled is terminal
    expect((await e.ledger.get(id))!.state).toBe('settled')
  })

  test('revenue per UTC day and service and gas, exact integers above 2^53', async () => {
    const clock = { ms: Date.parse('2026-11-21T23:59:59.999Z') }
    const e = await engines[kind](clock)
    const a = (await e.ledger.reserve(res(1, 'a', '1000')))!
    expect(await e.ledger.settleOnce(a, { tx: '0x1', gasUsed: '61234', effectiveGasPrice: '1000000007' })).toBe(true)
    clock.ms = Date.parse('2026-11-22T00:00:00.000Z')
    const b = (await e.ledger.reserve(res(2, 'a', '9007199254740993')))!
    await e.ledger.settleOnce(b, { tx: '0x2', gasUsed: '50000', effectiveGasPrice: '3' })
    const c = (await e.ledger.reserve(res(3, 'b', '7')))!
    await e.ledger.settleOnce(c, { tx: '0x3' })
    const d = (await e.ledger.reserve(res(4, 'b', '5')))!
    await e.ledger.transition(d, 'failed')
    e.stats.record('a', { calls: 2 })
    const network = 'eip155:8453'
    expect(await e.ledger.settledByDay(0)).toEqual([
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
    const r = await loadStatsReport(e.stats, e.ledger, 30, 2000, network, new Date(clock.ms))
    expect(r.totals).toMatchObject({
      paid_calls: 3,
      revenue_atomic: '9007199254742000',
      calls: 2,
      gas_wei: (61234n * 1000000007n + 150000n).toString(),
    })
    expect(await e.ledger.averageSettlementCost(0)).toBe((61234n * 1000000007n + 150000n) / 2n)
    expect(await e.ledger.settledTotal()).toBe(9007199254742000n)
    await e.stats.close()
  })

  test("the protocol of a settled payment is the one recorded at reservation, never the payload's marker", async () => {
    const clock = { ms: Date.parse('2026-11-23T10:00:00Z') }
    const e = await engines[kind](clock)
    // Admitted by MPP (the server says so), and an x402 payment whose payload carries MPP's marker (its client wrote it).
    const mpp = (await e.ledger.reserve({ ...res(7, 'p', '10'), protocol: 'mpp' }))!
    const forged = (await e.ledger.reserve({
      ...res(8, 'p', '20'),
      payload: { 'org.paymentauth': { challengeId: 'x' } },
    }))!
    const plain = (await e.ledger.reserve({ ...res(9, 'p', '40'), protocol: 'x402' }))!
    for (const id of [mpp, forged, plain]) await e.ledger.settleOnce(id, { tx: `0x${id}` })
    expect((await e.ledger.get(mpp))?.protocol).toBe('mpp')
    expect((await e.ledger.get(forged))?.protocol).toBe('x402')
    const rows = (await e.ledger.settledByDay(0)).filter((r) => r.slug === 'p')
    expect(rows.map((r) => [r.protocol, r.paid_calls, r.revenue_atomic])).toEqual([
      ['mpp', 1, '10'],
      ['x402', 2, '60'],
    ])
    await e.stats.close()
  })

  test('traffic counters are batched in memory and written on flush', async () => {
    const clock = { ms: Date.parse('2026-11-22T10:00:00Z') }
    const e = await engines[kind](clock)
    for (let i = 0; i < 1000; i++) e.stats.record('slugify', { calls: 1 })
    e.stats.record('slugify', { errors: 1, tokens: 5 })
    e.stats.record('x-y', { demo_calls: 1 })
    await e.stats.flush()
    e.stats.record('slugify', { calls: 1 })
    expect(await e.stats.rows(1)).toEqual([
      { day: '2026-11-22', slug: 'slugify', calls: 1001, errors: 1, tokens: 5, demo_calls: 0 },
      { day: '2026-11-22', slug: 'x-y', calls: 0, errors: 0, tokens: 0, demo_calls: 1 },
    ])
    await e.stats.close()
  })

  test('the daily quota holds under 20 concurrent calls, refunds, and resets at UTC midnight', async () => {
    const clock = { ms: Date.parse('2026-11-22T23:59:59Z') }
    const e = await engines[kind](clock)
    const q = e.quota(5)
    const got = await Promise.all(Array.from({ length: 20 }, () => q.consume('a')))
    expect(got.filter((x) => x.allowed).length).toBe(5)
    expect(await q.consume('a')).toMatchObject({
      allowed: false,
      used: 5,
      remaining: 0,
      resetsAt: '2026-11-23T00:00:00.000Z',
    })
    await q.refund('a', got.find((x) => x.allowed)!)
    expect((await q.consume('a')).allowed).toBe(true)
    expect((await q.consume('b')).allowed).toBe(true)
    clock.ms = Date.parse('2026-11-23T00:00:01Z')
    expect(await q.consume('a')).toMatchObject({ allowed: true, used: 1, remaining: 4 })
    expect((await e.quota(0).consume('c')).allowed).toBe(false)
  })

  test('kept results: served only while the payment is settled; an identifier is claimed once per payer', async () => {
    const clock = { ms: Date.now() }
    const e = await engines[kind](clock)
    const store = e.results()
    const r1 = res(10),
      r2 = { ...res(11), payer: r1.payer }
    const [id1, id2] = [(await e.ledger.reserve(r1))!, (await e.ledger.reserve(r2))!]
    const k = (id: number, r: Reservation) => ({
      paymentId: id,
      payer: r.payer,
      nonce: r.nonce,
      key: 'key-1',
      requestHash: 'h',
      expiresAt: Math.floor(clock.ms / 1000) + 60,
    })
    const claims = await Promise.all([
      store.claim({ ...k(id1, r1), key: 'key-1' }),
      store.claim({ ...k(id2, r2), key: 'key-1' }),
    ])
    expect(claims.filter((c) => c === null).length).toBe(1)
    const winner = claims[0] === null ? id1 : id2
    expect(await store.keep(k(winner, winner === id1 ? r1 : r2), '{"ok":true}')).toBe(true)
    await e.ledger.settleOnce(winner, { tx: '0xfeed' })
    const row = (await store.byKey(r1.payer, 'key-1'))!
    expect(row).toMatchObject({ payment_id: winner, state: 'settled', body: '{"ok":true}', tx_hash: '0xfeed' })
    const won = winner === id1 ? r1 : r2
    expect(await store.byAuthorization(won.network, won.payer, won.nonce)).toMatchObject({ payment_id: winner })
    expect(await store.byAuthorization('eip155:84532', won.payer, won.nonce)).toBeNull() // another chain's payment
    expect(await store.keep({ ...k(id2 === winner ? id1 : id2, r1), key: null }, 'x'.repeat(2000))).toBe(false) // over the single cap
    await e.ledger.transition(winner, 'failed') // terminal 'settled' stays
    expect((await store.byKey(r1.payer, 'key-1'))?.state).toBe('settled')
    clock.ms += 120_000 // past expiry: deleted on read and purged
    expect(await store.byKey(r1.payer, 'key-1')).toBeNull()
    expect(await store.purge()).toBeGreaterThanOrEqual(0)
  })

  test('the payer in-flight limit is read from the ledger rows under the payer lock', async () => {
    const clock = { ms: Date.now() }
    const { ledger: l } = await engines[kind](clock)
    const skew = l.clockSkewMs
    expect(skew).toBe(kind === 'sqlite' ? 0 : 1000) // one process, one clock; N instances, N clocks
    const payer = res(50).payer
    const a = (await l.reserve({ ...res(50), amount: '600' }))!
    const b = (await l.reserve({ ...res(51), payer, amount: '600' }))!
    const since = clock.ms - 1000
    // nothing else in flight: the verification's own balance check stands, no read needed
    expect(await l.verifyWithin(a, payer.toUpperCase().replace('0X', '0x'), 600n, null, since)).toMatchObject({
      outcome: 'ok',
      inFlight: 0n,
    })
    expect((await l.get(a))!.state).toBe('verified')
    expect((await l.events(a)).map((x) => x.state)).toEqual(['reserved', 'verified'])
    // a is in flight: the balance must be read, and 1000 does not cover both; the row stays reserved
    expect(await l.verifyWithin(b, payer, 600n, null, since)).toMatchObject({ outcome: 'recheck', inFlight: 600n })
    expect(await l.verifyWithin(b, payer, 600n, { value: 1000n, readAtMs: clock.ms }, since)).toMatchObject({
      outcome: 'short',
      inFlight: 600n,
      spent: 0n,
    })
    expect((await l.get(b))!.state).toBe('reserved')
    expect(await l.verifyWithin(b, payer, 600n, { value: 1200n, readAtMs: clock.ms }, since)).toMatchObject({
      outcome: 'ok',
    })
    // settling counts; released, failed and another payer's rows do not; pending counts until its authorization expires
    await l.transition(a, 'settling')
    const c = (await l.reserve({ ...res(52), payer, amount: '100', validBefore: Math.floor(clock.ms / 1000) + 10 }))!
    await l.transition(c, 'pending')
    const d = (await l.reserve({ ...res(53), payer, amount: '5000' }))!
    await l.transition(d, 'released')
    const f = (await l.reserve({ ...res(54), payer, amount: '7000' }))!
    await l.transition(f, 'failed')
    await l.transition((await l.reserve({ ...res(55), amount: '9000' }))!, 'verified')
    const g = (await l.reserve({ ...res(56), payer, amount: '1' }))!
    expect(await l.verifyWithin(g, payer, 1n, { value: 10_000n, readAtMs: clock.ms }, since)).toMatchObject({
      outcome: 'ok',
      inFlight: 1300n,
      sent: 700n, // settling and pending: their transfers may already show in a balance read; verified ones not
    })
    clock.ms += 16_000 // c's authorization expired (valid_before + 5 s): no longer in flight
    const h = (await l.reserve({ ...res(57), payer, amount: '1' }))!
    expect(await l.verifyWithin(h, payer, 1n, { value: 10_000n, readAtMs: clock.ms }, since)).toMatchObject({
      inFlight: 1201n,
      sent: 600n,
    })
    // 20 concurrent verifications against a balance for 3: exactly 3 pass
    const p3 = res(60).payer
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) => l.reserve({ ...res(200 + i), payer: p3, amount: '100' })),
    )
    const out = await Promise.all(
      ids.map((id) => l.verifyWithin(id!, p3, 100n, { value: 300n, readAtMs: clock.ms }, clock.ms)),
    )
    expect(out.filter((o) => o.outcome === 'ok').length).toBe(3)
    expect((await l.byState(['verified'])).filter((r) => r.payer === p3).length).toBe(3)
    // a balance read before a settlement: what settled since the read (less the clock skew) is taken off it
    const p4 = res(70).payer
    const s1 = (await l.reserve({ ...res(70), amount: '700' }))!
    const readAtMs = clock.ms
    clock.ms += 5000
    await l.transition(s1, 'verified')
    await l.settleOnce(s1, { tx: '0x1' })
    const s2 = (await l.reserve({ ...res(71), payer: p4, amount: '700' }))!
    // settled since the verification began: its balance check is stale
    expect(await l.verifyWithin(s2, p4, 700n, null, clock.ms)).toMatchObject({ outcome: 'recheck', inFlight: 0n })
    expect(await l.verifyWithin(s2, p4, 700n, { value: 1000n, readAtMs }, clock.ms)).toMatchObject({
      outcome: 'short',
      spent: 700n,
    }) // 1000 - 700 settled since the read < 700
    // a read begun right after the settlement was recorded: taken off only where clocks may differ
    expect(await l.verifyWithin(s2, p4, 700n, { value: 700n, readAtMs: clock.ms + 1 }, clock.ms)).toMatchObject({
      outcome: kind === 'sqlite' ? 'ok' : 'short',
    })
    if (kind === 'postgres')
      expect(
        await l.verifyWithin(s2, p4, 700n, { value: 700n, readAtMs: clock.ms + skew + 1 }, clock.ms),
      ).toMatchObject({ outcome: 'ok' })
    expect((await l.get(s2))!.state).toBe('verified')
    // a row no longer reserved (released meanwhile) is never moved to verified
    const r = (await l.reserve({ ...res(80), amount: '1' }))!
    await l.transition(r, 'released')
    expect(await l.verifyWithin(r, res(80).payer, 1n, null, clock.ms)).toMatchObject({ outcome: 'short' })
    expect((await l.get(r))!.state).toBe('released')
  })

  test('payer cool-downs: doubling per strike, capped, per payer, case-insensitive, restarting after a quiet period', async () => {
    const clock = { ms: 1_000_000 }
    const e = await engines[kind](clock)
    const c = e.cooldowns(30_000, 240_000)
    const A = '0xAbC0000000000000000000000000000000000c01'
    const B = '0x0000000000000000000000000000000000000C02'
    expect(await c.coolingFor(A)).toBe(0)
    const strikes = []
    for (const p of [A, A.toLowerCase(), A, A.toUpperCase().replace('0X', '0x'), A]) strikes.push(await c.strike(p))
    expect(strikes).toEqual([30_000, 60_000, 120_000, 240_000, 240_000])
    expect(await c.coolingFor(A.toLowerCase())).toBe(240_000)
    expect(await c.coolingFor(B)).toBe(0) // per payer
    expect(await c.strike(B)).toBe(30_000)
    clock.ms += 100_000
    expect(await c.coolingFor(A)).toBe(140_000)
    expect(await c.coolingFor(B.toLowerCase())).toBe(0)
    clock.ms += 150_000 // A's cool-down ended 10 s ago: within the quiet period, so a repeat stays at the cap
    expect(await c.coolingFor(A)).toBe(0)
    expect(await c.strike(A)).toBe(240_000)
    clock.ms += 240_000 + 240_000 // ended a full cap ago: starts over from the base
    expect(await c.strike(A)).toBe(30_000)
    expect(await c.strike(A)).toBe(60_000)
    // B's first cool-down ended 30 s after its strike, 100+150+480 s ago: B starts over too
    expect(await c.strike(B)).toBe(30_000)
  })
})

/** Rows of a database written by the previous release: a settled payment and one still in flight, same payer. */
const legacyRows = (network: string) => [
  { ...res(300, 'a', '4200'), network, state: 'settled', settled_at: Date.parse('2026-11-22T10:00:00Z') },
  { ...res(301, 'a', '4200'), payer: res(300).payer, network, state: 'verified', settled_at: null },
]

describe('#24: migrating an existing database to (network, payer, nonce)', () => {
  const MAIN = 'eip155:8453',
    TEST = 'eip155:84532'
  /** After the migration: the in-flight row still holds its authorization on its chain, not on another. */
  const check = async (ledger: LedgerStore) => {
    const [settled, inFlight] = legacyRows(MAIN)
    expect(await ledger.reserve(inFlight)).toBeNull()
    expect(await ledger.reserve(settled)).toBeNull()
    expect(await ledger.reserve({ ...inFlight, network: TEST })).not.toBeNull()
    expect(await ledger.settledByDay(0)).toEqual([
      {
        day: '2026-11-22',
        network: MAIN,
        slug: 'a',
        paid_calls: 1,
        revenue_atomic: '4200',
        gas_wei: '0',
        protocol: 'x402',
      },
    ])
    expect(await ledger.settledTotal(MAIN)).toBe(4200n)
  }

  test('sqlite: a version-5 database (the previous release) migrates in place, rows kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrate-'))
    const path = join(dir, 'v5.sqlite')
    const v = openDatabase(path)
    // the previous release's indexes, as its databases have them (and not the later payments_released)
    v.exec(`DROP INDEX payments_released;
      DROP INDEX payments_authorization;
      CREATE UNIQUE INDEX payments_authorization ON payments (payer, nonce) WHERE state <> 'released';
      DROP INDEX payments_settled;
      ALTER TABLE payments DROP COLUMN protocol;
      CREATE INDEX payments_settled ON payments (settled_at, slug, amount, gas_used, gas_price) WHERE state = 'settled';
      DROP TABLE channels; DROP TABLE channel_leases; DROP TABLE channel_charges; DROP TABLE channel_txs;
      PRAGMA user_version = 5;`)
    for (const r of legacyRows(MAIN))
      v.query(
        `INSERT INTO payments (payer, nonce, slug, tier, amount, network, state, request_id, valid_before, x402_version, payload, requirements, created_at, updated_at, settled_at)
         VALUES (?, ?, ?, 'flat', ?, ?, ?, 'r', 2000000000, 2, '{}', '{}', 1, 1, ?)`,
      ).run(r.payer, r.nonce, r.slug, r.amount, r.network, r.state, r.settled_at)
    v.close()
    const db = openDatabase(path)
    try {
      expect((db.query('PRAGMA user_version').get() as { user_version: number }).user_version).toBeGreaterThan(5)
      const index = (name: string) =>
        (db.query(`SELECT sql FROM sqlite_master WHERE name = ?`).get(name) as { sql: string }).sql
      expect(index('payments_authorization')).toContain('(network, payer, nonce)')
      expect(index('payments_settled')).toContain('(settled_at, network, slug')
      await check(new Ledger(db))
    } finally {
      db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('postgres: a database at the previous schema version migrates in place, rows kept', async () => {
    const url = await pg.pg.createDatabase('migrate_network')
    const raw = new SQL({ url, max: 1 })
    const previous = PG_MIGRATIONS.findIndex((m) => m.includes('(network, payer, nonce)'))
    expect(previous).toBeGreaterThan(0)
    await raw.begin(async (tx) => {
      for (const m of PG_MIGRATIONS.slice(0, previous)) await tx.unsafe(m)
      await tx`CREATE TABLE schema_version (version integer NOT NULL)`
      await tx`INSERT INTO schema_version (version) VALUES (${previous})`
      for (const r of legacyRows(MAIN))
        await tx`INSERT INTO payments (payer, nonce, slug, tier, amount, network, state, request_id, valid_before, x402_version, payload, requirements, created_at, updated_at, settled_at, instance)
          VALUES (${r.payer}, ${r.nonce}, ${r.slug}, 'flat', ${r.amount}, ${r.network}, ${r.state}, 'r', 2000000000, 2, '{}', '{}', 1, 1, ${r.settled_at}, 'old')`
    })
    await raw.close()
    const sql = await pg.pool(url, 2)
    expect(Number((await sql`SELECT version FROM schema_version`)[0].version)).toBe(PG_MIGRATIONS.length)
    const [idx] = await sql`SELECT indexdef FROM pg_indexes WHERE indexname = 'payments_authorization'`
    expect(idx.indexdef).toContain('(network, payer, nonce)')
    await check(new PgLedger(sql, 'new-instance'))
  })
})

describe('postgres only', () => {
  test('five instances booting at once migrate once (advisory lock)', async () => {
    const url = await pg.pg.createDatabase('migrate_race')
    const opened = await Promise.all(Array.from({ length: 5 }, () => pg.pool(url, 2)))
    const [v] = await opened[0]`SELECT version FROM schema_version`
    expect(Number(v.version)).toBe(PG_MIGRATIONS.length)
    expect(Number((await opened[0]`SELECT COUNT(*) AS n FROM schema_version`)[0].n)).toBe(1)
    const [t] = await opened[0]`SHOW statement_timeout`
    expect(t.statement_timeout).toBe('5s')
  })

  test('the payer in-flight limit is read from the ledger under the payer lock (across instances)', async () => {
    const clock = { ms: Date.now() }
    const e = await engines.postgres(clock)
    const l = e.ledger as PgLedger
    const other = new PgLedger((l as unknown as { sql: SQL }).sql, 'another-instance', () => clock.ms)
    const payer = res(20).payer
    const a = (await l.reserve({ ...res(20), amount: '600' }))!
    const b = (await other.reserve({ ...res(21), payer, amount: '600' }))!
    const since = clock.ms - 1000
    expect(await l.verifyWithin(a, payer, 600n, null, since)).toMatchObject({ outcome: 'ok', inFlight: 0n })
    // b (another instance): a is in flight, so its balance must be read, and 1000 does not cover both
    expect(await other.verifyWithin(b, payer, 600n, null, since)).toMatchObject({ outcome: 'recheck', inFlight: 600n })
    expect(await other.verifyWithin(b, payer, 600n, { value: 1000n, readAtMs: clock.ms }, since)).toMatchObject({
      outcome: 'short',
      inFlight: 600n,
    })
    expect((await other.get(b))!.state).toBe('reserved')
    expect(await other.verifyWithin(b, payer, 600n, { value: 1200n, readAtMs: clock.ms }, since)).toMatchObject({
      outcome: 'ok',
      inFlight: 600n,
    })
    expect(await other.get(b)).toMatchObject({ state: 'verified', instance: 'another-instance' })
    // 20 concurrent verifications against a balance for 3: exactly 3 pass
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) => other.reserve({ ...res(100 + i), payer: res(30).payer, amount: '100' })),
    )
    const out = await Promise.all(
      ids.map((id) => other.verifyWithin(id!, res(30).payer, 100n, { value: 300n, readAtMs: clock.ms }, since)),
    )
    expect(out.filter((o) => o.outcome === 'ok').length).toBe(3)
    // a balance read before a settlement: what settled since the read (any instance) is taken off it
    const payer2 = res(40).payer
    const s1 = (await l.reserve({ ...res(40), amount: '700' }))!
    const readAtMs = clock.ms
    clock.ms += 5000
    await l.settleOnce(s1, { tx: '0x1' })
    const s2 = (await other.reserve({ ...res(41), payer: payer2, amount: '700' }))!
    expect(await other.verifyWithin(s2, payer2, 700n, null, clock.ms)).toMatchObject({ outcome: 'recheck' }) // settled since
    expect(await other.verifyWithin(s2, payer2, 700n, { value: 1000n, readAtMs }, clock.ms)).toMatchObject({
      outcome: 'short',
    }) // 1000 - 700 settled < 700
    expect(
      await other.verifyWithin(s2, payer2, 700n, { value: 300n + 700n, readAtMs: clock.ms }, clock.ms),
    ).toMatchObject({ outcome: 'short' }) // read within SKEW_MS of the settlement: taken off too (clock skew; conservative)
    expect(
      await other.verifyWithin(s2, payer2, 700n, { value: 700n, readAtMs: clock.ms + 3000 }, clock.ms),
    ).toMatchObject({ outcome: 'ok' })
  })

  test('only one instance holds the reconciler lock at a time', async () => {
    const e = await engines.postgres({ ms: Date.now() })
    const l = e.ledger as PgLedger
    let release!: () => void
    const held = l.exclusively(
      'agent-api:reconcile',
      () =>
        new Promise<string>((r) => {
          release = () => r('first')
        }),
    )
    await Bun.sleep(0)
    while (!release) await Bun.sleep(5)
    expect(await l.exclusively('agent-api:reconcile', async () => 'second')).toBeUndefined()
    release()
    expect(await held).toBe('first')
    expect(await l.exclusively('agent-api:reconcile', async () => 'third')).toBe('third')
  })

  test('an unreachable Postgres is one clear error without the password', async () => {
    const err = await openPostgres({
      url: 'postgres://user:s3cret@127.0.0.1:1/db',
      poolMax: 1,
      statementTimeoutMs: 1000,
    }).catch((x) => x)
    expect(err).toBeInstanceOf(DatabaseUnavailable)
    expect(err.message).toContain('Postgres is unreachable')
    expect(err.message).not.toContain('s3cret')
  })
})

test('postgres: the refusal throttle is one window shared by every instance', async () => {
  const sql = await pg.fresh('throttle', 4)
  let now = 1_000_000
  const a = new PgThrottle(sql, 3, 60_000, () => now),
    b = new PgThrottle(sql, 3, 60_000, () => now)
  await a.hit('1.2.3.4')
  await b.hit('1.2.3.4')
  expect(await a.blocked('1.2.3.4')).toBe(false)
  await Promise.all([a.hit('1.2.3.4'), b.hit('other')])
  expect([await a.blocked('1.2.3.4'), await b.blocked('1.2.3.4'), await b.blocked('other')]).toEqual([
    true,
    true,
    false,
  ])
  now += 30_000
  expect(await b.blocked('1.2.3.4')).toBe(true)
  expect(b.retryAfter('1.2.3.4')).toBe(30)
  now += 30_000
  expect(await b.blocked('1.2.3.4')).toBe(false)
  await a.hit('1.2.3.4')
  expect(await a.blocked('1.2.3.4')).toBe(false) // a new window
  expect(await new PgThrottle(sql, 0).blocked('1.2.3.4')).toBe(false)
})

test('postgres: a payer struck by one instance is cooling down on every instance', async () => {
  const url = await pg.pg.createDatabase('cooldowns')
  const [sqlA, sqlB] = await Promise.all([1, 2].map(() => pg.pool(url, 4)))
  let now = 5_000_000
  const a = new PgLedger(sqlA, 'instance-a', () => now)
  const b = new PgLedger(sqlB, 'instance-b', () => now)
  const payer = '0xDeF0000000000000000000000000000000000c03'
  expect(await b.cooldowns.coolingFor(payer)).toBe(0)
  expect(await a.cooldowns.strike(payer)).toBe(30_000)
  expect(await b.cooldowns.coolingFor(payer.toLowerCase())).toBe(30_000)
  // strikes from both instances at once count once each (one statement per strike, no lost update)
  const ms = await Promise.all([a.cooldowns.strike(payer), b.cooldowns.strike(payer), b.cooldowns.strike(payer)])
  expect(ms.sort((x, y) => x - y)).toEqual([60_000, 120_000, 240_000])
  expect(await a.cooldowns.coolingFor(payer)).toBe(240_000)
  now += 240_000
  expect([await a.cooldowns.coolingFor(payer), await b.cooldowns.coolingFor(payer)]).toEqual([0, 0])
  expect(await b.cooldowns.strike(payer)).toBe(480_000) // a repeat soon after: doubled again, seen by a
  expect(await a.cooldowns.coolingFor(payer)).toBe(480_000)
})
