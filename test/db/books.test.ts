/**
 * The day's books count every scheme (issue #32 item 6), on both engines: /stats paid calls and revenue are the exact
 * settlements (by the UTC day they settled) plus the channel charges (by the UTC day of the charge), per day, per
 * service and per network; `schemes` gives each scheme's part, channels with what was claimed, swept and sponsored,
 * and their gas by day. A one-day window (/stats/today) holds only that day's charges.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadStatsReport, statsReport } from '../../runtime/db/report'
import { PgChannels } from '../../runtime/db/postgres/channels'
import { PgLedger } from '../../runtime/db/postgres/ledger'
import { PgStats } from '../../runtime/db/postgres/stats'
import { Channels } from '../../runtime/db/sqlite/channels'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { Ledger } from '../../runtime/db/sqlite/ledger'
import { Stats } from '../../runtime/db/sqlite/stats'
import type { ChannelOpen, ChannelStore, LedgerStore, StatsStore } from '../../runtime/db/store'
import { testPostgresPools, type TestPools } from '../support/postgres'
import { reservation } from '../support/reservation'

let pg: TestPools
beforeAll(async () => {
  pg = await testPostgresPools()
}, 60_000)
afterAll(() => pg?.stop())

const MAIN = 'eip155:8453'
const TEST = 'eip155:84532'
const clock = { ms: 0 }
let dbs = 0
const engines: Record<
  'sqlite' | 'postgres',
  () => Promise<{ ledger: LedgerStore; stats: StatsStore; channels: ChannelStore }>
> = {
  async sqlite() {
    const db = openDatabase(':memory:')
    return {
      ledger: new Ledger(db, () => clock.ms),
      stats: new Stats(db, 60_000, () => new Date(clock.ms)),
      channels: new Channels(db),
    }
  },
  async postgres() {
    const sql = await pg.fresh(`books${++dbs}`, 10)
    return {
      ledger: new PgLedger(sql, 'test-instance', () => clock.ms),
      stats: new PgStats(sql, 60_000, () => new Date(clock.ms)),
      channels: new PgChannels(sql),
    }
  },
}

const hex = (n: number, bytes: number) => `0x${n.toString(16).padStart(bytes * 2, '0')}` as `0x${string}`
const channel = (n: number, network = MAIN): ChannelOpen => ({
  id: hex(n, 32),
  network,
  config: {
    payer: hex(n, 20),
    payerAuthorizer: hex(n, 20),
    receiver: hex(3, 20),
    receiverAuthorizer: hex(4, 20),
    token: hex(5, 20),
    withdrawDelay: 900,
    salt: hex(n, 32),
  },
  mirror: { balance: 1_000_000n, totalClaimed: 0n, withdrawRequestedAt: 0, refundNonce: 0n, syncedAt: 1 },
})
const charge = (id: string, from: bigint, to: bigint, slug: string, at: number) => ({
  channelId: id as `0x${string}`,
  holder: 'h',
  from,
  to,
  signedMax: to,
  signature: '0x01' as `0x${string}`,
  slug,
  at,
})

describe.each(['sqlite', 'postgres'] as const)('%s', (kind) => {
  test('revenue = exact settled + channel charges, by the UTC day of each; schemes side by side', async () => {
    const day1 = Date.parse('2026-11-21T23:59:59.999Z')
    const day2 = Date.parse('2026-11-22T00:00:00.000Z')
    clock.ms = day1
    const e = await engines[kind]()
    // exact: 1000 on day 1 (service a), 7 on day 2 (service b)
    const a = (await e.ledger.reserve(reservation(1, { slug: 'a', amount: '1000' })))!
    await e.ledger.settleOnce(a, { tx: '0x1', gasUsed: '100', effectiveGasPrice: '2' })
    clock.ms = day2
    const b = (await e.ledger.reserve(reservation(2, { slug: 'b', amount: '7' })))!
    await e.ledger.settleOnce(b, { tx: '0x2' })
    // channels: 300 on day 1 (a), 500 + 200 on day 2 (a, b); one testnet charge of 99 (its own network)
    const c = await e.channels.open(channel(10), day1)
    const t = await e.channels.open(channel(11, TEST), day1)
    expect(await e.channels.commitCharge(charge(c.id, 0n, 300n, 'a', day1))).toBe(true)
    expect(await e.channels.commitCharge(charge(c.id, 300n, 800n, 'a', day2))).toBe(true)
    expect(await e.channels.commitCharge(charge(c.id, 800n, 1000n, 'b', day2 + 1000))).toBe(true)
    expect(await e.channels.commitCharge(charge(t.id, 0n, 99n, 'a', day2))).toBe(true)
    const gas = { gasUsed: 1000n, gasPrice: 3n }
    const payer = c.payer
    await e.channels.recordTx({
      network: MAIN,
      kind: 'deposit',
      tx: '0xd',
      amount: 1_000_000n,
      channels: 1,
      ...gas,
      at: day1,
      payer,
      channelId: c.id,
    })
    await e.channels.recordClaim({ network: MAIN, tx: '0xc', ...gas, at: day2 }, [{ id: c.id, to: 800n }])
    await e.channels.recordTx({ network: MAIN, kind: 'sweep', tx: '0xs', amount: 800n, channels: 0, ...gas, at: day2 })
    await e.channels.recordTx({ network: TEST, kind: 'deposit', tx: '0xt', amount: 1n, channels: 1, ...gas, at: day2 })

    expect(await e.channels.chargedByDay(0)).toEqual([
      { day: '2026-11-21', network: MAIN, slug: 'a', paid_calls: 1, revenue_atomic: '300', gas_wei: '0' },
      { day: '2026-11-22', network: MAIN, slug: 'a', paid_calls: 1, revenue_atomic: '500', gas_wei: '0' },
      { day: '2026-11-22', network: MAIN, slug: 'b', paid_calls: 1, revenue_atomic: '200', gas_wei: '0' },
      { day: '2026-11-22', network: TEST, slug: 'a', paid_calls: 1, revenue_atomic: '99', gas_wei: '0' },
    ])

    const r = await loadStatsReport(e.stats, e.ledger, 30, null, MAIN, new Date(day2 + 5000), e.channels)
    expect(r.totals).toMatchObject({ paid_calls: 5, revenue_atomic: String(1007 + 1000) })
    // gas: exact 200 + the channels' deposit, claim and sweep of the main network (3 × 3000)
    expect(r.totals.gas_wei).toBe(String(200 + 9000))
    expect(r.days.map((d) => [d.day, d.paid_calls, d.revenue_atomic, d.gas_wei])).toEqual([
      ['2026-11-21', 2, '1300', String(200 + 3000)],
      ['2026-11-22', 3, '707', '6000'],
    ])
    expect(r.services.map((s) => [s.slug, s.paid_calls, s.revenue_atomic])).toEqual([
      ['a', 3, '1800'],
      ['b', 2, '207'],
    ])
    expect(r.schemes).toEqual({
      exact: { paid_calls: 2, revenue_usd: 0.001007, revenue_atomic: '1007', gas_wei: '200', gas_usd: null },
      'batch-settlement': {
        paid_calls: 3,
        revenue_usd: 0.001,
        revenue_atomic: '1000',
        gas_wei: '9000',
        gas_usd: null,
        claimed_atomic: '800',
        swept_atomic: '800',
        sponsored_gas_wei: '3000',
      },
    })
    expect(r.networks.map((n) => [n.network, n.paid_calls, n.revenue_atomic, n.gas_wei])).toEqual([
      [MAIN, 5, '2007', '9200'],
      [TEST, 1, '99', '3000'],
    ])
    // the one-day window (/stats/today): day 2's exact and channel charges only
    const today = await loadStatsReport(e.stats, e.ledger, 1, null, MAIN, new Date(day2 + 5000), e.channels)
    expect(today.totals).toMatchObject({ paid_calls: 3, revenue_atomic: '707' })
    expect(today.schemes['batch-settlement']).toMatchObject({
      paid_calls: 2,
      revenue_atomic: '700',
      claimed_atomic: '800',
    })
    // without the channels (none offered): exact only, as before
    const exactOnly = await loadStatsReport(e.stats, e.ledger, 30, null, MAIN, new Date(day2 + 5000))
    expect(exactOnly.totals.revenue_atomic).toBe('1007')
    expect(Object.keys(exactOnly.schemes)).toEqual(['exact'])
    // the synchronous report (SQLite) agrees
    if (kind === 'sqlite') {
      const sync = statsReport(
        e.stats as never,
        e.ledger as never,
        30,
        null,
        MAIN,
        new Date(day2 + 5000),
        e.channels as never,
      )
      expect(sync).toEqual(r)
    }
    await e.stats.close()
  })
})
