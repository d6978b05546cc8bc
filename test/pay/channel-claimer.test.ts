/**
 * The claim and sweep engine (runtime/pay/schemes/batch-settlement/claimer.ts) on the dev chain, with channels opened and paid by
 * the official batch-settlement client through the doors: claims by threshold, by a payer's timed withdrawal (read
 * from the chain, the read retried when the node fails it), by age (several channels per transaction, at most the batch limit), and at shutdown; sweeps by
 * threshold and at shutdown; a channel that cannot be claimed does not hold up the others, a failed sweep is tried
 * again. At the end the payee's on-chain delta = swept = claimed = the sum of the charges.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { PaymentPayload } from '@x402/core/types'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { Channels as SqliteChannels } from '../../runtime/db/sqlite/channels'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { loadConfig } from '../../runtime/config'
import { ChannelClaimer, channelSettings, DEFAULT_POLICY } from '../../runtime/pay/schemes/batch-settlement/claimer'
import { admitChannelPayment, commitChannelCharge } from '../../runtime/pay/schemes/batch-settlement/doors'
import type { ChannelFacilitator } from '../../runtime/pay/schemes/batch-settlement/facilitator'
import { channelRequirements } from '../../runtime/pay/schemes/batch-settlement/requirements'
import { channelPayer, channelRig, hear, pay, payerWallet, PRICE, type ChannelRig } from '../support/channels'

let chain: DevChain
let rig: ChannelRig
const store = new SqliteChannels(openDatabase(':memory:'))
const clock = { ms: Date.now() }

beforeAll(async () => {
  chain = await startDevChain()
  rig = channelRig(chain, store)
  rig.doors.now = () => clock.ms
})
afterAll(() => {
  rig?.settler.close()
  return chain?.stop()
})

type Payer = Awaited<ReturnType<typeof channelPayer>> & { id?: Hex; first?: PaymentPayload }

/** `n` paid requests on the payer's channel (the first one deposits). */
async function spend(p: Payer, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const payload = await pay(p.client, rig.requirements)
    const a = await admitChannelPayment(rig.doors, payload, rig.requirements)
    if (!a.ok) throw new Error(`refused: ${a.reason}`)
    const c = await commitChannelCharge(rig.doors, a.ticket, PRICE, 'svc')
    if (!c.ok) throw new Error(c.reason)
    await hear(p.client, payload, rig.requirements, c.response)
    p.id = a.ticket.channelId
    p.first ??= payload
  }
}

test('claims by threshold, withdrawal, age and shutdown; sweeps by threshold and at shutdown; the books match the chain', async () => {
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  // sweeps fail once (the engine tries again), everything else goes through the official facilitator
  let failSweeps = 1
  const facilitator: ChannelFacilitator = {
    verify: (p, r) => rig.facilitator.verify(p, r),
    settle: async (p, r) => {
      if ((p.payload as { type: string }).type === 'settle' && failSweeps-- > 0)
        return { success: false, errorReason: 'test_outage', transaction: '', network: r.network } as never
      return rig.facilitator.settle(p, r)
    },
  }
  // the chain's reads fail `flaky` times first (a node that answers "header not found" for a block it just announced)
  let flaky = 0
  const rpc: typeof rig.settler.rpc = (method, params, timeoutMs) => {
    if (method === 'eth_call' && flaky-- > 0) return Promise.reject(new Error('header not found'))
    return rig.settler.rpc(method, params, timeoutMs)
  }
  const claimer = new ChannelClaimer({
    store,
    facilitator,
    rpc,
    requirements: rig.requirements,
    gasOf: rig.gasOf,
    now: () => clock.ms,
    policy: {
      claimThreshold: 3n * PRICE,
      claimIntervalMs: 600_000,
      maxClaimsPerBatch: 2,
      sweepThreshold: 5n * PRICE,
      sweepIntervalMs: 86_400_000,
      watchIntervalMs: 60_000,
      retryMs: 1000,
    },
  })
  const [a, b, c, d, e, f] = (await Promise.all(
    Array.from({ length: 6 }, () => channelPayer(chain, 1_000_000n)),
  )) as Payer[]
  await spend(a, 3) // reaches the threshold
  for (const p of [b, c, e, f]) await spend(p, 1)

  // threshold: only a
  let r = await claimer.round()
  expect(r.claims).toEqual([{ tx: expect.any(String), channels: 1, amount: 3n * PRICE }])
  expect(r.sweeps).toEqual([])
  expect((await store.get(a.id!))!.claimed).toBe(3n * PRICE)

  // c's payer starts a timed withdrawal: the next watch sees it and c is claimed at once
  const cfg = (c.first!.payload as { channelConfig: unknown }).channelConfig
  await payerWallet(chain, c.key)('initiateWithdraw', [cfg, 50_000n])
  clock.ms += 1000
  expect((await claimer.round()).claims).toEqual([]) // the watch is not due yet
  clock.ms += 60_000
  flaky = 2 // the watch's read is retried
  r = await claimer.round()
  expect(flaky).toBeLessThan(0)
  expect(r.claims).toEqual([{ tx: expect.any(String), channels: 1, amount: PRICE }])
  expect((await store.get(c.id!))!.withdrawRequestedAt).toBeGreaterThan(0)

  // d pays later; after the claim interval b, e and f are due (two transactions: the batch limit is 2), d is not
  await spend(d, 1)
  clock.ms += 600_000 - 60_000
  r = await claimer.round()
  expect(r.claims.map((x) => x.channels)).toEqual([2, 1])
  expect(r.claims.reduce((s, x) => s + x.amount, 0n)).toBe(3n * PRICE)
  expect((await store.get(d.id!))!.claimed).toBe(0n)
  // 7 claimed passes the sweep threshold: the sweep fails once, then goes through on the next round
  expect(r.sweeps).toEqual([])
  expect(r.failures).toBe(1)
  clock.ms += 1000
  r = await claimer.round()
  expect(r.sweeps).toEqual([{ tx: expect.any(String), amount: 7n * PRICE }])
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeBefore + 7n * PRICE)

  // more on a; then shutdown claims a and d in one transaction and sweeps
  await spend(a, 2)
  const last = await claimer.stop()
  expect(last.claims).toEqual([{ tx: expect.any(String), channels: 2, amount: 3n * PRICE }])
  expect(last.sweeps).toEqual([{ tx: expect.any(String), amount: 3n * PRICE }])

  const t = await store.totals()
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore
  expect(t.earned).toBe(10n * PRICE)
  expect({ delta, swept: t.swept, claimed: t.claimed }).toEqual({ delta: t.earned, swept: t.earned, claimed: t.earned })
  expect(t.txs).toMatchObject({ deposit: 6, claim: 5, sweep: 2 })
  expect(t.gasWei).toBeGreaterThan(0n)
  expect(
    await store.dueForClaim(rig.requirements.network, { minUnclaimed: 0n, chargedBefore: 0, all: true }, 10),
  ).toEqual([])
}, 120_000)

test('a channel that cannot be claimed does not hold up the others; it stays due and is tried again later', async () => {
  const claimer = new ChannelClaimer({
    store,
    facilitator: rig.facilitator,
    rpc: rig.settler.rpc,
    requirements: rig.requirements,
    now: () => clock.ms,
    policy: { claimThreshold: PRICE, maxClaimsPerBatch: 10, sweepThreshold: 10n ** 12n, retryMs: 60_000 },
  })
  const [good, bad] = (await Promise.all([channelPayer(chain, 1_000_000n), channelPayer(chain, 1_000_000n)])) as Payer[]
  await spend(good, 1)
  await spend(bad, 1)
  // the kept voucher of `bad` is corrupted (as a damaged record would be): its claim reverts in simulation
  const kept = (await store.get(bad.id!))!
  const other = (good.first!.payload as { voucher: { signature: Hex } }).voucher.signature
  expect(store.lease(bad.id!, 'x', clock.ms + 1000, clock.ms)).toBe(true)
  expect(
    await store.commitCharge({
      channelId: bad.id!,
      holder: 'x',
      from: kept.charged,
      to: kept.charged + 1n,
      signedMax: kept.charged + 1n,
      signature: other,
      slug: 'svc',
      at: clock.ms,
    }),
  ).toBe(true)
  const r = await claimer.round()
  // the batch of two failed, then each alone: good landed, bad is waiting for its retry
  expect(r.claims).toEqual([{ tx: expect.any(String), channels: 1, amount: PRICE }])
  expect(r.failures).toBe(2)
  expect((await store.get(good.id!))!.claimed).toBe(PRICE)
  expect((await store.get(bad.id!))!.claimed).toBe(0n)
  expect((await claimer.round()).failures).toBe(0) // not before its retry time
  clock.ms += 60_000
  expect((await claimer.round()).failures).toBe(1)
}, 60_000)

test('a claim or a sweep that landed but whose record was lost (a crash) is recorded from the chain, not counted twice', async () => {
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const claimer = new ChannelClaimer({
    store,
    facilitator: rig.facilitator,
    rpc: rig.settler.rpc,
    requirements: rig.requirements,
    now: () => clock.ms,
    policy: { claimThreshold: PRICE, sweepThreshold: 10n ** 12n },
  })
  const p = (await channelPayer(chain, 1_000_000n)) as Payer
  await spend(p, 2)
  // a claim lands and the process dies before recording it: the engine claims again (a no-op on chain), records it
  const r = rig.requirements
  const kept = (await store.get(p.id!))!
  const claims = [
    {
      voucher: { channel: kept.config, maxClaimableAmount: String(kept.signedMax) },
      signature: kept.signature,
      totalClaimed: String(kept.charged),
    },
  ]
  const direct = await rig.facilitator.settle(
    { x402Version: 2, accepted: r, payload: { type: 'claim', claims } } as never,
    r,
  )
  expect(direct.success).toBe(true)
  expect((await claimer.round()).claims.some((c) => c.amount === 2n * PRICE)).toBe(true)
  const { amount } = await store.unswept(rig.requirements.network)
  // the sweep goes out and lands (exactly what the books hold: the second claim counted once), and the process dies
  // before recording it
  const lost = await rig.facilitator.settle(
    { x402Version: 2, accepted: r, payload: { type: 'settle', receiver: r.payTo, token: r.asset } } as never,
    r,
  )
  expect(lost).toMatchObject({ success: true, amount: String(amount) })
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(payeeBefore + amount)
  const last = await claimer.stop()
  expect(last.sweeps).toEqual([{ tx: '', amount }])
  expect(await store.unswept(r.network)).toMatchObject({ amount: 0n })
})

test('claimed funds below the sweep threshold are swept once they have waited the sweep interval', async () => {
  const claimer = new ChannelClaimer({
    store,
    facilitator: rig.facilitator,
    rpc: rig.settler.rpc,
    requirements: rig.requirements,
    now: () => clock.ms,
    policy: { claimThreshold: PRICE, sweepThreshold: 10n ** 12n, sweepIntervalMs: 3_600_000 },
  })
  const p = (await channelPayer(chain, 1_000_000n)) as Payer
  await spend(p, 1)
  expect(await claimer.round()).toMatchObject({ sweeps: [], claims: [{ channels: 1, amount: PRICE }] })
  clock.ms += 3_599_000
  expect((await claimer.round()).sweeps).toEqual([])
  clock.ms += 1000
  expect((await claimer.round()).sweeps).toEqual([{ tx: expect.any(String), amount: PRICE }])
})

test('the operator sets the claim interval, the per-payer claim threshold and the minimum deposit; the defaults are documented ones', () => {
  expect(channelSettings(loadConfig({}).config)).toEqual({
    policy: { claimIntervalMs: 3_600_000, claimThreshold: 250_000n },
    minDeposit: 1_000_000n,
  })
  const { config, problems } = loadConfig({
    CHANNEL_CLAIM_INTERVAL_S: '600',
    CHANNEL_MIN_DEPOSIT_USD: '0.25',
    CHANNEL_CLAIM_THRESHOLD_USD: '0.05',
  })
  expect(problems).toEqual([])
  expect(channelSettings(config)).toEqual({
    policy: { claimIntervalMs: 600_000, claimThreshold: 50_000n },
    minDeposit: 250_000n,
  })
  expect(loadConfig({ CHANNEL_MIN_DEPOSIT_USD: '0.0000001' }).problems).toContain(
    'CHANNEL_MIN_DEPOSIT_USD has at most 6 decimals',
  )
  expect(loadConfig({ CHANNEL_CLAIM_THRESHOLD_USD: '0.0000001' }).problems).toContain(
    'CHANNEL_CLAIM_THRESHOLD_USD has at most 6 decimals',
  )
  expect(loadConfig({ CHANNEL_CLAIM_INTERVAL_S: '0' }).problems.length).toBe(1)
  expect(DEFAULT_POLICY).toMatchObject({ claimThreshold: 250_000n, maxClaimsPerBatch: 25, sweepThreshold: 1_000_000n })
  // the batch-settlement entry beside an exact one: same terms, the spec's extra and the minimum deposit
  const exact = { ...rig.requirements, scheme: 'exact', extra: { name: 'USD Coin', version: '2' } }
  const offered = channelRequirements(exact, { receiverAuthorizer: chain.settler.address, minDeposit: 1_000_000n })
  expect(offered).toEqual({
    ...exact,
    scheme: 'batch-settlement',
    extra: {
      receiverAuthorizer: chain.settler.address,
      withdrawDelay: 86_400,
      name: 'USD Coin',
      version: '2',
      minDeposit: '1000000',
    },
  })
})
