/**
 * Two instances on one Postgres (each its own pool, settlement pipeline and doors; one receiver authorizer) serve one
 * payer's channel: while one instance runs a request the other answers "busy"; a voucher charged by one is a
 * corrective 402 on the other; the next voucher is served by either with no RPC; one claim and one sweep pay exactly
 * what both charged, the claim engines of both taking turns on a shared lock.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { generatePrivateKey } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { PgChannels } from '../../runtime/db/postgres/channels'
import { PgLedger } from '../../runtime/db/postgres/ledger'
import { ChannelClaimer } from '../../runtime/pay/schemes/batch-settlement/claimer'
import { admitChannelPayment, commitChannelCharge } from '../../runtime/pay/schemes/batch-settlement/doors'
import { REASON } from '../../runtime/pay/reasons'
import { channelPayer, channelRig, hear, pay, PRICE, type ChannelRig } from '../support/channels'
import { testPostgresPools, type TestPools } from '../support/postgres'

let chain: DevChain
let pg: TestPools
let one: ChannelRig
let two: ChannelRig
let ledgers: PgLedger[]

beforeAll(async () => {
  ;[chain, pg] = await Promise.all([startDevChain(), testPostgresPools()])
  const url = await pg.pg.createDatabase('channels_two_instances')
  const authorizerKey = generatePrivateKey()
  const pools = [await pg.pool(url, 4), await pg.pool(url, 4)]
  one = channelRig(chain, new PgChannels(pools[0]), { authorizerKey })
  two = channelRig(chain, new PgChannels(pools[1]), { authorizerKey })
  ledgers = pools.map((sql, i) => new PgLedger(sql, `instance-${i}`))
}, 60_000)
afterAll(async () => {
  one?.settler.close()
  two?.settler.close()
  await pg?.stop()
  await chain?.stop()
})

test('one channel, two instances: one request at a time, one charge per voucher, books exact', async () => {
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const p = await channelPayer(chain, 1_000_000n)
  const d = await pay(p.client, one.requirements)
  const ad = await admitChannelPayment(one.doors, d, one.requirements)
  if (!ad.ok) throw new Error(ad.reason)
  const cd = await commitChannelCharge(one.doors, ad.ticket, PRICE, 'svc')
  if (!cd.ok) throw new Error(cd.reason)
  await hear(p.client, d, one.requirements, cd.response)

  const v = await pay(p.client, one.requirements)
  const a1 = await admitChannelPayment(one.doors, v, one.requirements)
  if (!a1.ok) throw new Error(a1.reason)
  // the other instance, the same voucher or not, while the first runs it
  expect(await admitChannelPayment(two.doors, v, two.requirements)).toMatchObject({
    ok: false,
    reason: REASON.channelBusy,
  })
  const c1 = await commitChannelCharge(one.doors, a1.ticket, PRICE, 'svc')
  if (!c1.ok) throw new Error(c1.reason)
  // charged on one: a replay on the other is a corrective 402 carrying what the first charged
  const replay = await admitChannelPayment(two.doors, v, two.requirements)
  expect(replay).toMatchObject({
    ok: false,
    reason: REASON.channelCumulativeMismatch,
    channelState: { chargedCumulativeAmount: String(2n * PRICE) },
  })
  await hear(p.client, v, one.requirements, c1.response)

  const calls = { ...two.facilitatorCalls }
  for (let i = 0; i < 4; i++) {
    const rig = i % 2 ? one : two
    const next = await pay(p.client, rig.requirements)
    const a = await admitChannelPayment(rig.doors, next, rig.requirements)
    if (!a.ok) throw new Error(a.reason)
    const c = await commitChannelCharge(rig.doors, a.ticket, PRICE, 'svc')
    if (!c.ok) throw new Error(c.reason)
    await hear(p.client, next, rig.requirements, c.response)
  }
  expect(two.facilitatorCalls).toEqual(calls)

  // both instances shut down at once: their claim engines take turns (a shared advisory lock), the work is done once
  const claimers = [one, two].map(
    (rig, i) =>
      new ChannelClaimer({
        store: rig.doors.store,
        facilitator: rig.facilitator,
        rpc: rig.settler.rpc,
        requirements: rig.requirements,
        gasOf: rig.gasOf,
        exclusively: (name, fn) => ledgers[i].exclusively(name, fn),
      }),
  )
  const ends = await Promise.all(claimers.map((c) => c.stop()))
  expect(ends.flatMap((e) => e.claims)).toEqual([{ tx: expect.any(String), channels: 1, amount: 6n * PRICE }])
  expect(ends.flatMap((e) => e.sweeps)).toEqual([{ tx: expect.any(String), amount: 6n * PRICE }])
  const t = await one.doors.store.totals()
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore
  expect({ earned: t.earned, claimed: t.claimed, swept: t.swept, delta }).toEqual({
    earned: 6n * PRICE,
    claimed: 6n * PRICE,
    swept: 6n * PRICE,
    delta: 6n * PRICE,
  })
}, 120_000)
