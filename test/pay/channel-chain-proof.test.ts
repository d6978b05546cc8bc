/**
 * Fail closed with the chain (issue #32 item 7; x402 #3092, #3096, #2471, #3464) on the dev chain, channels opened
 * and paid by the official client through the doors, with a facilitator that lies (its amounts, its transaction,
 * "nothing to settle" while funds are there): a refund counts only what its `Refunded` event returned, a refund that
 * is no refund on chain books nothing; a sweep counts only its `Settled` event; "nothing to settle" is believed
 * only when the contract's `receivers` says so; a claim whose receipt is not there is not booked (so no sweep counts
 * on it); a claim is triggered when one payer's unclaimed charges over its channels pass the threshold.
 * Books after each: payee's on-chain delta = swept = claimed; payer's refund = the chain's.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { PaymentPayload, SettleResponse } from '@x402/core/types'
import { keccak256, toHex, type Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { Channels as SqliteChannels } from '../../runtime/db/sqlite/channels'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { ChannelClaimer } from '../../runtime/pay/schemes/batch-settlement/claimer'
import { admitChannelPayment, commitChannelCharge } from '../../runtime/pay/schemes/batch-settlement/doors'
import type { ChannelFacilitator } from '../../runtime/pay/schemes/batch-settlement/facilitator'
import { refundChannelPayment } from '../../runtime/pay/schemes/batch-settlement/refund'
import { signVoucher } from '@x402/evm/batch-settlement/client'
import { REASON } from '../../runtime/pay/reasons'
import { channelPayer, channelRig, DEPOSIT, hear, pay, PRICE, type ChannelRig } from '../support/channels'

let chain: DevChain
let rig: ChannelRig
const store = new SqliteChannels(openDatabase(':memory:'))

beforeAll(async () => {
  chain = await startDevChain()
  rig = channelRig(chain, store)
})
afterAll(() => {
  rig?.settler.close()
  return chain?.stop()
})

type Payer = Awaited<ReturnType<typeof channelPayer>> & { id?: Hex; first?: PaymentPayload; depositTx?: string }

async function spend(p: Payer, n: number, client = p.client): Promise<void> {
  for (let i = 0; i < n; i++) {
    const payload = await pay(client, rig.requirements)
    const a = await admitChannelPayment(rig.doors, payload, rig.requirements)
    if (!a.ok) throw new Error(`refused: ${a.reason}`)
    const c = await commitChannelCharge(rig.doors, a.ticket, PRICE, 'svc')
    if (!c.ok) throw new Error(c.reason)
    await hear(client, payload, rig.requirements, c.response)
    p.id = a.ticket.channelId
    p.first ??= payload
    if (c.response.transaction) p.depositTx = c.response.transaction
  }
}

const refundPayload = async (p: Payer) => ({
  ...p.first!,
  payload: {
    type: 'refund',
    channelConfig: (p.first!.payload as { channelConfig: unknown }).channelConfig,
    voucher: await signVoucher(p.account as never, p.id!, String((await store.get(p.id!))!.charged), 'eip155:8453'),
  },
})

/** The rig's facilitator with its settle answers rewritten by `lie` (the transaction still goes to the chain). */
const lying = (
  lie: (s: SettleResponse, type: string) => SettleResponse | Promise<SettleResponse>,
): ChannelFacilitator => ({
  verify: (p, r) => rig.facilitator.verify(p, r),
  settle: async (p, r) => lie(await rig.facilitator.settle(p, r), (p.payload as { type: string }).type),
})

test('a refund counts what its Refunded event returned, not the facilitator’s amount; a refund that is none books nothing', async () => {
  const p: Payer = await channelPayer(chain, 1_000_000n)
  await spend(p, 2)
  const before = await usdcBalance(chain.rpcUrl, p.account.address)
  // a facilitator that answers success with another transaction (the deposit's, mined, no Refunded event) and a
  // made-up amount: refused, nothing booked
  expect(p.depositTx).toMatch(/^0x[0-9a-f]{64}$/)
  const fake: ChannelFacilitator = {
    verify: (x, r) => rig.facilitator.verify(x, r),
    settle: async (_x, r) =>
      ({ success: true, transaction: p.depositTx, network: r.network, amount: '99999' }) as never,
  }
  const none = await refundChannelPayment(
    { ...rig.doors, facilitator: fake },
    (await refundPayload(p)) as never,
    rig.requirements,
  )
  expect(none).toMatchObject({ ok: false, reason: REASON.channelRefundNoBalance })
  expect((await store.totals()).txs.refund).toBe(0)
  expect((await store.get(p.id!))!.claimed).toBe(0n)

  // a facilitator that inflates the amount: the books and the answer say the chain's
  const inflated = lying((s) => ({ ...s, amount: String(BigInt(s.amount ?? '0') + 5_000n) }))
  const out = await refundChannelPayment(
    { ...rig.doors, facilitator: inflated },
    (await refundPayload(p)) as never,
    rig.requirements,
  )
  if (!out.ok) throw new Error(out.reason)
  const expected = DEPOSIT - 2n * PRICE
  expect(out.response.amount).toBe(String(expected))
  expect((await usdcBalance(chain.rpcUrl, p.account.address)) - before).toBe(expected)
  const t = await store.totals()
  expect(t.txs.refund).toBe(1)
  expect(t.claimed).toBe(2n * PRICE)
})

test('a sweep counts its Settled event; "nothing to settle" is believed only when the chain agrees; a claim without receipt is not booked', async () => {
  const payee0 = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const swept0 = (await store.totals()).swept
  const p: Payer = await channelPayer(chain, 1_000_000n)
  await spend(p, 3)
  let mode: 'bogus-claim' | 'nothing' | 'inflate' | 'honest' = 'bogus-claim'
  const facilitator: ChannelFacilitator = {
    verify: (x, r) => rig.facilitator.verify(x, r),
    settle: async (x, r) => {
      const type = (x.payload as { type: string }).type
      if (mode === 'bogus-claim' && type === 'claim')
        return { success: true, transaction: `0x${'cd'.repeat(32)}`, network: r.network } as never
      if (mode === 'nothing' && type === 'settle')
        return {
          success: false,
          errorReason: REASON.channelNothingToSettle,
          transaction: '',
          network: r.network,
        } as never
      const s = await rig.facilitator.settle(x, r)
      return mode === 'inflate' && type === 'settle' ? { ...s, amount: String(BigInt(s.amount ?? '0') * 10n) } : s
    },
  }
  const claimer = new ChannelClaimer({
    store,
    facilitator,
    rpc: rig.settler.rpc,
    requirements: rig.requirements,
    gasOf: rig.gasOf,
    policy: { claimThreshold: 1n, sweepThreshold: 1n, retryMs: 0, receiptWaitMs: 300 },
  })
  // a claim the chain does not show: not booked, nothing to sweep on our books
  let r = await claimer.round()
  expect(r.claims).toEqual([])
  expect(r.failures).toBeGreaterThan(0)
  expect((await store.get(p.id!))!.claimed).toBe(0n)
  // the real claim lands; the facilitator then says "nothing to settle" while the contract holds the claim: not
  // reconciled as swept
  mode = 'nothing'
  r = await claimer.round()
  expect(r.claims).toEqual([{ tx: expect.any(String), channels: 1, amount: 3n * PRICE }])
  expect(r.sweeps).toEqual([])
  expect((await store.unswept(rig.requirements.network)).amount).toBeGreaterThanOrEqual(3n * PRICE)
  // an inflated sweep amount: the books say what the Settled event moved
  mode = 'inflate'
  const unswept = (await store.unswept(rig.requirements.network)).amount
  r = await claimer.round()
  expect(r.sweeps).toEqual([{ tx: expect.any(String), amount: unswept }])
  expect(await store.unswept(rig.requirements.network)).toMatchObject({ amount: 0n })
  // and now "nothing to settle" is true on chain: a later sweep of a lost record would be reconciled
  const t = await store.totals()
  expect(t.swept).toBe(t.claimed)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payee0).toBe(t.swept - swept0)
})

test('a claim is triggered when one payer’s unclaimed charges over its channels pass the threshold', async () => {
  const [p, q] = (await Promise.all([channelPayer(chain, 1_000_000n), channelPayer(chain, 1_000_000n)])) as Payer[]
  // p: two channels (two salts), 2 charges each; q: one channel, 3 charges. Threshold 4 × PRICE per payer.
  const p2 = p.newClient(keccak256(toHex('second channel')))
  const second: Payer = { ...p }
  await spend(p, 2)
  await spend(second, 2, p2)
  await spend(q, 3)
  const claimer = new ChannelClaimer({
    store,
    facilitator: rig.facilitator,
    rpc: rig.settler.rpc,
    requirements: rig.requirements,
    gasOf: rig.gasOf,
    policy: { claimThreshold: 4n * PRICE, claimIntervalMs: 3_600_000, sweepThreshold: 10n ** 12n },
  })
  const r = await claimer.round()
  expect(r.claims).toEqual([{ tx: expect.any(String), channels: 2, amount: 4n * PRICE }])
  expect((await store.get(p.id!))!.claimed).toBe(2n * PRICE)
  expect((await store.get(second.id!))!.claimed).toBe(2n * PRICE)
  expect((await store.get(q.id!))!.claimed).toBe(0n) // 3 × PRICE: below the threshold
  // the rest at shutdown; the books equal the chain
  const payee0 = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const unswept0 = (await store.unswept(rig.requirements.network)).amount
  await claimer.stop()
  const t = await store.totals()
  expect(t.claimed).toBe(t.earned)
  expect(t.swept).toBe(t.claimed)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payee0).toBe(unswept0 + 3n * PRICE)
})
