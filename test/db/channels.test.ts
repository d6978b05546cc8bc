/**
 * The payment-channel store contract (runtime/db/sqlite/channels.ts, runtime/db/postgres/channels.ts) on both engines: one
 * lease per channel whoever races for it, a charge committed once per cumulative amount (compare-and-set), the claim
 * selection (threshold, age, pending withdrawal, everything) and the books of claims and sweeps.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { durableCommits, openDatabase } from '../../runtime/db/sqlite/connect'
import { Channels as SqliteChannels } from '../../runtime/db/sqlite/channels'
import { PgChannels } from '../../runtime/db/postgres/channels'
import type { ChannelOpen, ChannelStore } from '../../runtime/db/store'
import { testPostgresPools, type TestPools } from '../support/postgres'

let pg: TestPools
beforeAll(async () => {
  pg = await testPostgresPools()
}, 60_000)
afterAll(() => pg?.stop())

let dbs = 0
const engines: Record<'sqlite' | 'postgres', () => Promise<ChannelStore>> = {
  sqlite: async () => new SqliteChannels(openDatabase(':memory:')),
  postgres: async () => new PgChannels(await pg.fresh(`ch${++dbs}`, 10)),
}

const NET = 'eip155:8453'
const hex = (n: number, bytes: number) => `0x${n.toString(16).padStart(bytes * 2, '0')}` as `0x${string}`
const channel = (n: number, o: Partial<ChannelOpen['mirror']> = {}): ChannelOpen => ({
  id: hex(n, 32),
  network: NET,
  config: {
    payer: `0xAbC${n.toString(16).padStart(37, '0')}` as `0x${string}`,
    payerAuthorizer: hex(2, 20),
    receiver: hex(3, 20),
    receiverAuthorizer: hex(4, 20),
    token: hex(5, 20),
    withdrawDelay: 900,
    salt: hex(n, 32),
  },
  mirror: { balance: 1_000_000n, totalClaimed: 0n, withdrawRequestedAt: 0, refundNonce: 0n, syncedAt: 1, ...o },
})
const charge = (id: string, from: bigint, to: bigint, holder = 'h', at = 1000) => ({
  channelId: id as `0x${string}`,
  holder,
  from,
  to,
  signedMax: to,
  signature: '0x01' as `0x${string}`,
  slug: 's',
  at,
})

describe.each(['sqlite', 'postgres'] as const)('%s', (kind) => {
  test('one lease per channel among 20 concurrent takers; released or expired, it can be taken again', async () => {
    const st = await engines[kind]()
    const id = channel(1).id
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => st.lease(id, `h${i}`, 10_000, 1000)))
    expect(got.filter(Boolean).length).toBe(1)
    const winner = `h${got.indexOf(true)}`
    expect(await st.lease(id.toUpperCase().replace('0X', '0x'), 'other', 10_000, 1000)).toBe(false)
    await st.release(id, 'other') // not its lease: nothing happens
    expect(await st.lease(id, 'other', 10_000, 2000)).toBe(false)
    await st.release(id, winner)
    expect(await st.lease(id, 'other', 10_000, 2000)).toBe(true)
    // an expired lease is taken over
    expect(await st.lease(id, 'third', 20_000, 10_000)).toBe(true)
  })

  test('a charge commits once per cumulative amount: 20 concurrent commits from one base, one wins', async () => {
    const st = await engines[kind]()
    const c = await st.open(channel(2, { totalClaimed: 500n }), 100)
    expect(c).toMatchObject({ charged: 500n, claimed: 500n, totalClaimed: 500n, balance: 1_000_000n, signature: '' })
    expect(c.payer).toBe(channel(2).config.payer.toLowerCase())
    const wins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => st.commitCharge(charge(c.id, 500n, 1500n + BigInt(i), `h${i}`))),
    )
    expect(wins.filter(Boolean).length).toBe(1)
    const after = (await st.get(c.id))!
    expect(after.charged).toBe(1500n + BigInt(wins.indexOf(true)))
    expect(after.firstUnclaimedAt).toBe(1000)
    // a replay of the same base is refused, the books count one charge
    expect(await st.commitCharge(charge(c.id, 500n, 1500n))).toBe(false)
    const t = await st.totals(NET)
    expect(t).toMatchObject({ channels: 1, charges: 1, earned: after.charged - 500n })
    // a charge beyond its voucher or not moving up is refused outright
    const refused = (x: Parameters<ChannelStore['commitCharge']>[0]) =>
      expect(Promise.resolve().then(() => st.commitCharge(x))).rejects.toThrow()
    await refused({ ...charge(c.id, after.charged, after.charged + 10n), signedMax: after.charged + 5n })
    await refused(charge(c.id, after.charged, after.charged))
  })

  test('the commit releases the lease; reopening a kept channel refreshes its mirror and keeps its charges', async () => {
    const st = await engines[kind]()
    const c = await st.open(channel(3), 100)
    expect(await st.lease(c.id, 'a', 10_000, 100)).toBe(true)
    expect(await st.commitCharge(charge(c.id, 0n, 1000n, 'a'))).toBe(true)
    expect(await st.lease(c.id, 'b', 10_000, 200)).toBe(true)
    // a failed commit (stale base) releases too
    expect(await st.commitCharge(charge(c.id, 0n, 1000n, 'b'))).toBe(false)
    expect(await st.lease(c.id, 'c', 10_000, 300)).toBe(true)
    const again = await st.open(channel(3, { balance: 2_000_000n, withdrawRequestedAt: 77, syncedAt: 400 }), 400)
    expect(again).toMatchObject({ charged: 1000n, signedMax: 1000n, balance: 2_000_000n, withdrawRequestedAt: 77 })
    await st.mirror(c.id, { balance: 5n, totalClaimed: 4n, withdrawRequestedAt: 0, refundNonce: 3n, syncedAt: 500 })
    expect(await st.get(c.id)).toMatchObject({ balance: 5n, totalClaimed: 4n, refundNonce: 3n, syncedAt: 500 })
  })

  test('claims are due by threshold, age or withdrawal; a claim moves `claimed` once; sweeps balance the books', async () => {
    const st = await engines[kind]()
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map((n) => st.open(channel(10 + n), 0)))
    await st.commitCharge(charge(a.id, 0n, 5000n, 'h', 1000)) // over the threshold
    await st.commitCharge(charge(b.id, 0n, 100n, 'h', 2000)) // old enough at 2000
    await st.commitCharge(charge(c.id, 0n, 100n, 'h', 9000)) // young, small
    await st.commitCharge(charge(d.id, 0n, 100n, 'h', 9000)) // young, small, but its payer is withdrawing
    await st.mirror(d.id, {
      balance: 1_000_000n,
      totalClaimed: 0n,
      withdrawRequestedAt: 5,
      refundNonce: 0n,
      syncedAt: 1,
    })
    const due = await st.dueForClaim(NET, { minUnclaimed: 1000n, chargedBefore: 2000 }, 10)
    expect(due.map((x) => x.id).sort()).toEqual([a.id, b.id, d.id].sort())
    expect((await st.dueForClaim(NET, { minUnclaimed: 1000n, chargedBefore: 2000 }, 1)).length).toBe(1)
    expect((await st.dueForClaim(NET, { minUnclaimed: 1000n, chargedBefore: 0, all: true }, 10)).length).toBe(4)
    expect(await st.dueForClaim('eip155:1', { minUnclaimed: 0n, chargedBefore: 1e15, all: true }, 10)).toEqual([])

    // a charge lands on `a` after the claim was built: it stays due, aged from its own time
    await st.commitCharge(charge(a.id, 5000n, 6000n, 'h', 3000))
    const claimed = await st.recordClaim(
      { network: NET, tx: '0xc1', gasUsed: 50_000n, gasPrice: 5_000_000n, at: 4000 },
      [
        { id: a.id, to: 5000n },
        { id: b.id, to: 100n },
        { id: d.id, to: 100n },
      ],
    )
    expect(claimed).toBe(5200n)
    expect(await st.get(a.id)).toMatchObject({ claimed: 5000n, totalClaimed: 5000n, firstUnclaimedAt: 3000 })
    expect(await st.get(b.id)).toMatchObject({ claimed: 100n, firstUnclaimedAt: null })
    // the same claim again (a retry after a lost answer) claims nothing more
    expect(await st.recordClaim({ network: NET, tx: '0xc2', at: 4100 }, [{ id: b.id, to: 100n }])).toBe(0n)
    expect((await st.dueForClaim(NET, { minUnclaimed: 1001n, chargedBefore: 2000 }, 10)).map((x) => x.id)).toEqual([])
    expect((await st.dueForClaim(NET, { minUnclaimed: 1001n, chargedBefore: 3000 }, 10)).map((x) => x.id)).toEqual([
      a.id,
    ])
    expect((await st.dueForClaim(NET, { minUnclaimed: 1000n, chargedBefore: 0 }, 10)).map((x) => x.id)).toEqual([a.id])

    expect(await st.unswept(NET)).toEqual({ amount: 5200n, lastSweepAt: 0 })
    await st.recordTx({
      network: NET,
      kind: 'sweep',
      tx: '0xs1',
      amount: 5200n,
      channels: 0,
      gasUsed: 40_000n,
      gasPrice: 5_000_000n,
      at: 5000,
    })
    await st.recordTx({ network: NET, kind: 'deposit', tx: '0xd1', amount: 4_000_000n, channels: 1, at: 5000 })
    expect(await st.unswept(NET)).toEqual({ amount: 0n, lastSweepAt: 5000 })
    const t = await st.totals(NET)
    expect(t).toMatchObject({
      channels: 4,
      charges: 5,
      earned: 6300n,
      claimed: 5200n,
      swept: 5200n,
      deposited: 4_000_000n,
    })
    expect(t.gasWei).toBe(90_000n * 5_000_000n)
    expect(t.txs).toEqual({ deposit: 1, claim: 2, sweep: 1, refund: 0 })
    expect((await st.totals('eip155:1')).earned).toBe(0n)
    expect((await st.list(2)).length).toBe(2)
  })
})

describe.each(['sqlite', 'postgres'] as const)('%s', (kind) => {
  test('totals since a moment: only the charges and transactions at or after it, the channels used since', async () => {
    const st = await engines[kind]()
    const [old, recent] = [await st.open(channel(60), 1000), await st.open(channel(61), 1000)]
    expect(await st.commitCharge(charge(old.id, 0n, 1000n, 'h', 1000))).toBe(true)
    expect(await st.commitCharge(charge(recent.id, 0n, 2000n, 'h', 9000))).toBe(true)
    expect(await st.commitCharge(charge(recent.id, 2000n, 2500n, 'h', 10_000))).toBe(true)
    const gas = { gasUsed: 100_000n, gasPrice: 10n }
    await st.recordTx({ network: NET, kind: 'deposit', tx: '0xd0', amount: 7_000_000n, channels: 1, ...gas, at: 1000 })
    await st.recordTx({ network: NET, kind: 'deposit', tx: '0xd1', amount: 3_000_000n, channels: 1, ...gas, at: 9000 })
    await st.recordClaim({ network: NET, tx: '0xc0', gasUsed: 50_000n, gasPrice: 10n, at: 2000 }, [
      { id: old.id, to: 1000n },
    ])
    await st.recordClaim({ network: NET, tx: '0xc1', gasUsed: 60_000n, gasPrice: 10n, at: 10_000 }, [
      { id: recent.id, to: 2500n },
    ])
    await st.recordTx({ network: NET, kind: 'sweep', tx: '0xs1', amount: 3500n, channels: 0, ...gas, at: 10_000 })
    // all time: both channels, three charges, every transaction
    expect(await st.totals(NET)).toMatchObject({ channels: 2, charges: 3, earned: 3500n, claimed: 3500n, swept: 3500n })
    expect((await st.totals(NET)).gasWei).toBe((100_000n * 3n + 50_000n + 60_000n) * 10n)
    for (const since of [5000, 9000]) {
      const t = await st.totals(NET, since)
      expect(t).toMatchObject({ channels: 1, charges: 2, earned: 2500n, claimed: 2500n, swept: 3500n })
      expect(t.deposited).toBe(3_000_000n)
      expect(t.gasWei).toBe((100_000n * 2n + 60_000n) * 10n)
      expect(t.txs).toEqual({ deposit: 1, claim: 1, sweep: 1, refund: 0 })
    }
    expect(await st.totals(NET, 10_001)).toMatchObject({ channels: 0, charges: 0, earned: 0n, gasWei: 0n })
    expect((await st.totals(undefined, 9000)).charges).toBe(2) // every network
    expect((await st.totals('eip155:1', 0)).charges).toBe(0)
  })
})

test('postgres: two instances (two pools on one database) share one lease and one charge per cumulative amount', async () => {
  const url = await pg.pg.createDatabase('ch_shared')
  const [one, two] = [new PgChannels(await pg.pool(url, 5)), new PgChannels(await pg.pool(url, 5))]
  const c = await one.open(channel(40), 0)
  const takers = Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).lease(c.id, `h${i}`, 10_000, 1000))
  const got = await Promise.all(takers)
  expect(got.filter(Boolean).length).toBe(1)
  await (got.indexOf(true) % 2 ? one : two).release(c.id, `h${got.indexOf(true)}`)
  const wins = await Promise.all(
    Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).commitCharge(charge(c.id, 0n, 1000n, `h${i}`))),
  )
  expect(wins.filter(Boolean).length).toBe(1)
  expect((await two.totals(NET)).charges).toBe(1)
  expect((await one.get(c.id))!.charged).toBe(1000n)
})

test('sqlite: charges committed together share one fsync; one that fails (a second charge at one cumulative amount) fails alone', async () => {
  const db = openDatabase(':memory:')
  const st = new SqliteChannels(db)
  const [x, y] = await Promise.all([st.open(channel(50), 0), st.open(channel(51), 0)])
  expect(await st.commitCharge(charge(x.id, 0n, 1000n))).toBe(true)
  // a damaged record: charged back at 0, so the next charge would land at a cumulative amount already charged
  db.run(`UPDATE channels SET charged = '0' WHERE channel_id = ?`, [x.id])
  const fsyncs = durableCommits(db)
  const [bad, good] = await Promise.allSettled([
    st.commitCharge(charge(x.id, 0n, 1000n)),
    st.commitCharge(charge(y.id, 0n, 1000n)),
  ])
  expect(bad.status).toBe('rejected')
  expect(good).toEqual({ status: 'fulfilled', value: true })
  expect(durableCommits(db) - fsyncs).toBe(1)
  expect((await st.totals(NET)).charges).toBe(2)
  expect((await st.get(x.id))!.charged).toBe(0n)
})

test('sqlite: 40 channels charging at once share one fsync, each caller gets its own outcome (a stale base false, a duplicate charge refused)', async () => {
  const db = openDatabase(':memory:')
  const st = new SqliteChannels(db)
  const chans = await Promise.all(Array.from({ length: 40 }, (_, i) => st.open(channel(100 + i), 0)))
  const [stale, dup] = [chans[0], chans[1]]
  expect(await st.commitCharge(charge(stale.id, 0n, 500n))).toBe(true)
  expect(await st.commitCharge(charge(dup.id, 0n, 500n))).toBe(true)
  db.run(`UPDATE channels SET charged = '0' WHERE channel_id = ?`, [dup.id]) // damaged: 500 is charged already
  for (const c of chans) expect(st.lease(c.id, `h-${c.id}`, 10_000, 1000)).toBe(true)
  const fsyncs = durableCommits(db)
  const out = await Promise.allSettled(
    chans.map((c, i) => st.commitCharge(charge(c.id, 0n, i === 1 ? 500n : 1000n + BigInt(i), `h-${c.id}`))),
  )
  expect(durableCommits(db) - fsyncs).toBe(1)
  expect(out[0]).toEqual({ status: 'fulfilled', value: false }) // charged is 500, not 0: nothing written
  expect(out[1].status).toBe('rejected') // (channel, 500) is charged already
  for (let i = 2; i < 40; i++) expect(out[i]).toEqual({ status: 'fulfilled', value: true })
  expect((await st.get(stale.id))!.charged).toBe(500n)
  for (let i = 2; i < 40; i++) expect((await st.get(chans[i].id))!.charged).toBe(1000n + BigInt(i))
  expect((await st.totals(NET)).charges).toBe(2 + 38)
  // the committed ones (charged or not) freed their channel; the refused one keeps its lease for its caller to free
  expect(st.lease(stale.id, 'next', 10_000, 1000)).toBe(true)
  expect(st.lease(chans[2].id, 'next', 10_000, 1000)).toBe(true)
  expect(st.lease(dup.id, 'next', 10_000, 1000)).toBe(false)
})

test('sqlite: the channel kept in memory follows every write of the store (charge, mirror, claim, reopen); a charge not made is read again', async () => {
  const db = openDatabase(':memory:')
  const st = new SqliteChannels(db)
  const c = await st.open(channel(300), 0)
  const first = st.get(c.id)!
  expect(st.get(c.id)).toBe(first) // kept: the same object, no row parsed again
  expect(await st.commitCharge(charge(c.id, 0n, 1000n, 'h', 5000))).toBe(true)
  const after = st.get(c.id)!
  expect(after).not.toBe(first) // a new object: the one handed out before is unchanged
  expect(first.charged).toBe(0n)
  expect(after).toMatchObject({
    charged: 1000n,
    signedMax: 1000n,
    signature: '0x01',
    lastRequestAt: 5000,
    firstUnclaimedAt: 5000,
  })
  expect(after).toEqual(new SqliteChannels(db).get(c.id)!) // what the row says, read by a fresh store
  st.mirror(c.id, { balance: 777_000n, totalClaimed: 0n, withdrawRequestedAt: 1234, refundNonce: 2n, syncedAt: 99 })
  expect(st.get(c.id)).toMatchObject({
    balance: 777_000n,
    withdrawRequestedAt: 1234,
    refundNonce: 2n,
    syncedAt: 99,
    charged: 1000n,
  })
  st.recordClaim({ network: NET, tx: '0xclaim', at: 6000 }, [{ id: c.id, to: 1000n }])
  expect(st.get(c.id)).toMatchObject({ claimed: 1000n, totalClaimed: 1000n, firstUnclaimedAt: null })
  // a charge from a stale base is not made: read again, still as the row says
  expect(await st.commitCharge(charge(c.id, 0n, 2000n, 'h', 7000))).toBe(false)
  expect(st.get(c.id)).toEqual(new SqliteChannels(db).get(c.id)!)
  // reopened (a new deposit): the mirror refreshed, the charges kept
  const re = await st.open({ ...channel(300), mirror: { ...channel(300).mirror, balance: 5_000_000n } }, 8000)
  expect(re).toMatchObject({ balance: 5_000_000n, charged: 1000n })
  expect(st.get(c.id)).toEqual(re)
})

test('sqlite: several channels charged a few ms apart share fsyncs (a group waits for the next ones); one channel alone is committed each time', async () => {
  const db = openDatabase(':memory:')
  const st = new SqliteChannels(db)
  const chans = await Promise.all(Array.from({ length: 4 }, (_, i) => st.open(channel(200 + i), 0)))
  // one channel, its calls in sequence (one caller): one durable commit per charge, none held back for others
  let fsyncs = durableCommits(db)
  for (let i = 0; i < 5; i++)
    expect(await st.commitCharge(charge(chans[0].id, BigInt(i) * 10n, BigInt(i + 1) * 10n))).toBe(true)
  expect(durableCommits(db) - fsyncs).toBe(5)
  // four channels taking turns, a charge every 2 ms (callers at a moderate rate: none in the same turn): grouped.
  // A loaded machine only delays the timers, which groups more, never less.
  fsyncs = durableCommits(db)
  const out: Array<Promise<boolean>> = []
  for (let i = 0; i < 24; i++) {
    const c = chans[i % 4]
    const k = BigInt(Math.floor(i / 4))
    const from = (c === chans[0] ? 50n : 0n) + k * 10n
    out.push(st.commitCharge(charge(c.id, from, from + 10n, `h${i}`)))
    await Bun.sleep(2)
  }
  expect(await Promise.all(out)).toEqual(Array(24).fill(true))
  expect(durableCommits(db) - fsyncs).toBeLessThanOrEqual(8)
  expect((await st.get(chans[3].id))!.charged).toBe(60n)
  expect((await st.totals(NET)).charges).toBe(5 + 24)
})

describe.each(['sqlite', 'postgres'] as const)('%s', (kind) => {
  test('sponsored gas per payer: deposits and refunds by payer, and its standing after a refund that bought nothing', async () => {
    const st = await engines[kind]()
    const c = await st.open(channel(70), 1000)
    const payer = c.payer
    const gas = { gasUsed: 100_000n, gasPrice: 10n }
    const tx = (kind: 'deposit' | 'refund', at: number, id = c.id) =>
      st.recordTx({ network: NET, kind, tx: `0x${at}`, amount: 1n, channels: 1, ...gas, at, payer, channelId: id })
    expect(await st.standing(NET, payer, 0)).toEqual({ drained: false }) // never refunded
    await tx('deposit', 1000)
    await st.commitCharge(charge(c.id, 0n, 500n, 'h', 1500))
    await tx('refund', 2000) // its cycle bought 500
    expect(await st.standing(NET, payer, 0)).toEqual({ drained: false })
    expect(await st.boughtSinceRefund(c.id)).toBe(0n)
    await tx('deposit', 3000)
    await tx('refund', 4000) // bought nothing since the last refund
    expect(await st.standing(NET, payer.toUpperCase().replace('0X', '0x'), 0)).toEqual({ drained: true })
    expect(await st.standing(NET, payer, 4001)).toEqual({ drained: false }) // outside the window
    expect(await st.standing('eip155:1', payer, 0)).toEqual({ drained: false })
    // a purchase on any of the payer's channels since clears it
    await st.commitCharge(charge(c.id, 500n, 700n, 'h', 5000))
    expect(await st.boughtSinceRefund(c.id)).toBe(200n)
    expect(await st.standing(NET, payer, 0)).toEqual({ drained: false })
    // another payer, less gas; the list is most gas first, since a moment
    const other = await st.open(channel(71), 1000)
    await st.recordTx({
      network: NET,
      kind: 'deposit',
      tx: '0xo',
      amount: 1n,
      channels: 1,
      gasUsed: 1n,
      gasPrice: 1n,
      at: 6000,
      payer: other.payer,
      channelId: other.id,
    })
    await st.recordClaim({ network: NET, tx: '0xc', ...gas, at: 6000 }, [{ id: c.id, to: 700n }]) // not sponsored
    expect(await st.sponsored(NET, 0, 10)).toEqual([
      { payer, network: NET, deposits: 2, refunds: 2, gasWei: 4n * 1_000_000n, earned: 700n },
      { payer: other.payer, network: NET, deposits: 1, refunds: 0, gasWei: 1n, earned: 0n },
    ])
    expect(await st.sponsored(NET, 3500, 1)).toEqual([
      { payer, network: NET, deposits: 0, refunds: 1, gasWei: 1_000_000n, earned: 200n },
    ])
    expect((await st.totals(NET)).sponsoredGasWei).toBe(4n * 1_000_000n + 1n)
  })
})
