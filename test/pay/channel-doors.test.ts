/**
 * The two doors of a voucher-paid call (runtime/pay/schemes/batch-settlement/doors.ts) driven with the official batch-settlement
 * client's payloads on the dev chain: a deposit lands through our settlement pipeline, then vouchers are admitted
 * and committed with no facilitator call; the corrective 402 resynchronizes a client that lost its state; a replayed
 * voucher, a second request on a busy channel, a voucher beyond the balance and a foreign config are refused, and
 * nothing is charged for them.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { signVoucher } from '@x402/evm/batch-settlement/client'
import type { PaymentPayload } from '@x402/core/types'
import { keccak256, toHex, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { BATCH_SETTLEMENT } from '../../runtime/chain/addresses'
import { Channels as SqliteChannels } from '../../runtime/db/sqlite/channels'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import {
  admitChannelPayment,
  commitChannelCharge,
  releaseChannel,
  type ChannelTicket,
} from '../../runtime/pay/schemes/batch-settlement/doors'
import { refundChannelPayment } from '../../runtime/pay/schemes/batch-settlement/refund'
import { REASON } from '../../runtime/pay/reasons'
import { channelPayer, channelRig, correct, DEPOSIT, hear, pay, PRICE, type ChannelRig } from '../support/channels'

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

const admitted = async (payload: PaymentPayload): Promise<ChannelTicket> => {
  const a = await admitChannelPayment(rig.doors, payload, rig.requirements)
  if (!a.ok) throw new Error(`refused: ${a.reason} ${a.message}`)
  return a.ticket
}

test('a deposit lands before the handler, then vouchers are admitted and committed with no RPC; charges follow the actual price', async () => {
  const p = await channelPayer(chain, 1_000_000n)
  const first = await pay(p.client, rig.requirements)
  expect((first.payload as { type: string }).type).toBe('deposit')
  const t0 = await admitted(first)
  expect(t0.deposit?.amount).toBe(DEPOSIT)
  expect(await usdcBalance(chain.rpcUrl, BATCH_SETTLEMENT)).toBeGreaterThanOrEqual(DEPOSIT)
  const c0 = await commitChannelCharge(rig.doors, t0, PRICE, 'svc')
  if (!c0.ok) throw new Error(c0.reason)
  expect(c0.response).toMatchObject({
    success: true,
    transaction: t0.deposit?.transaction,
    amount: String(DEPOSIT),
    extra: { chargedAmount: '1000', channelState: { chargedCumulativeAmount: '1000', balance: String(DEPOSIT) } },
  })
  await hear(p.client, first, rig.requirements, c0.response)

  const calls = { ...rig.facilitatorCalls }
  // "pay for what was used": some requests cost less than their ceiling
  const actual = [1000n, 600n, 1n, 1000n, 250n]
  for (const a of actual) {
    const payload = await pay(p.client, rig.requirements)
    expect((payload.payload as { type: string }).type).toBe('voucher')
    const t = await admitted(payload)
    const c = await commitChannelCharge(rig.doors, t, a, 'svc')
    if (!c.ok) throw new Error(c.reason)
    expect(c.response).toMatchObject({ transaction: '', amount: '', extra: { chargedAmount: String(a) } })
    await hear(p.client, payload, rig.requirements, c.response)
  }
  expect(rig.facilitatorCalls).toEqual(calls)
  const kept = (await store.get(t0.channelId))!
  const charged = PRICE + actual.reduce((s, a) => s + a, 0n)
  expect(kept).toMatchObject({ charged, balance: DEPOSIT, claimed: 0n })
  expect((await store.totals()).earned).toBeGreaterThanOrEqual(charged)
  expect(kept.signedMax).toBe(charged - 250n + PRICE)
})

test('a client that lost its state gets the corrective 402; the official client accepts it and its next voucher is admitted', async () => {
  const salt = keccak256(toHex('corrective'))
  const p = await channelPayer(chain, 1_000_000n, salt)
  for (let i = 0; i < 3; i++) {
    const payload = await pay(p.client, rig.requirements)
    const t = await admitted(payload)
    const c = await commitChannelCharge(rig.doors, t, PRICE, 'svc')
    if (!c.ok) throw new Error(c.reason)
    await hear(p.client, payload, rig.requirements, c.response)
  }
  // the same payer on another machine: its client rebuilds from the chain (nothing claimed yet) and is behind
  const fresh = p.newClient(salt)
  const stale = await pay(fresh, rig.requirements)
  expect((stale.payload as { type: string }).type).toBe('voucher')
  const refused = await admitChannelPayment(rig.doors, stale, rig.requirements)
  if (refused.ok) throw new Error('a stale voucher was admitted')
  expect(refused.reason).toBe(REASON.channelCumulativeMismatch)
  expect(refused.channelState?.chargedCumulativeAmount).toBe(String(3n * PRICE))
  expect(refused.voucherState?.signedMaxClaimable).toBe(String(3n * PRICE))
  expect(await correct(fresh, rig.requirements, refused)).toBe(true)
  const next = await pay(fresh, rig.requirements)
  const t = await admitted(next)
  expect(t.base).toBe(3n * PRICE)
  expect((await commitChannelCharge(rig.doors, t, PRICE, 'svc')).ok).toBe(true)
})

test('a replayed voucher never charges twice; a second request on a busy channel is refused until the first ends', async () => {
  const p = await channelPayer(chain, 1_000_000n)
  const d = await pay(p.client, rig.requirements)
  const td = await admitted(d)
  const cd = await commitChannelCharge(rig.doors, td, PRICE, 'svc')
  if (!cd.ok) throw new Error(cd.reason)
  await hear(p.client, d, rig.requirements, cd.response)
  const v = await pay(p.client, rig.requirements)
  const tv = await admitted(v)

  // while it runs, another request on the channel (the same voucher again, or the next one) is busy
  const busy = await admitChannelPayment(rig.doors, v, rig.requirements)
  expect(busy).toMatchObject({ ok: false, reason: REASON.channelBusy })
  const cv = await commitChannelCharge(rig.doors, tv, PRICE, 'svc')
  if (!cv.ok) throw new Error(cv.reason)
  const before = (await store.totals()).charges
  // the same voucher again, after it was charged: a corrective 402, no charge
  for (let i = 0; i < 3; i++) {
    const replay = await admitChannelPayment(rig.doors, v, rig.requirements)
    expect(replay).toMatchObject({ ok: false, reason: REASON.channelCumulativeMismatch })
  }
  // ten at once: still none
  const burst = await Promise.all(Array.from({ length: 10 }, () => admitChannelPayment(rig.doors, v, rig.requirements)))
  expect(burst.every((b) => !b.ok)).toBe(true)
  expect((await store.totals()).charges).toBe(before)
  expect((await store.get(tv.channelId))!.charged).toBe(2n * PRICE)

  // a failed handler releases: the same voucher is then admitted again (the client may retry it)
  await hear(p.client, v, rig.requirements, cv.response)
  const next = await pay(p.client, rig.requirements)
  const tn = await admitted(next)
  await releaseChannel(rig.doors, tn)
  const again = await admitted(next)
  expect(again.base).toBe(2n * PRICE)
  expect((await commitChannelCharge(rig.doors, again, PRICE, 'svc')).ok).toBe(true)
})

test('a voucher beyond the balance, a bad signature, a foreign config and a small deposit are refused', async () => {
  const p = await channelPayer(chain, 1_000_000n)
  const d = await pay(p.client, rig.requirements)
  const td = await admitted(d)
  const cd = await commitChannelCharge(rig.doors, td, PRICE, 'svc')
  if (!cd.ok) throw new Error(cd.reason)
  const raw = d.payload as { channelConfig: unknown; voucher: { channelId: Hex } }
  const id = raw.voucher.channelId
  // a request whose ceiling is more than the channel holds: the voucher (charged + ceiling) exceeds the balance
  const big = { ...rig.requirements, amount: String(DEPOSIT) }
  const over = await signVoucher(p.account as never, id, String(DEPOSIT + PRICE), 'eip155:8453')
  const tooMuch = { ...d, accepted: big, payload: { type: 'voucher', channelConfig: raw.channelConfig, voucher: over } }
  expect(await admitChannelPayment(rig.doors, tooMuch as never, big)).toMatchObject({
    ok: false,
    reason: REASON.channelExceedsBalance,
  })
  // signed by someone else
  const other = privateKeyToAccount(generatePrivateKey())
  const forged = await signVoucher(other as never, id, String(2n * PRICE), 'eip155:8453')
  const bad = { ...d, payload: { type: 'voucher', channelConfig: raw.channelConfig, voucher: forged } }
  expect(await admitChannelPayment(rig.doors, bad as never, rig.requirements)).toMatchObject({
    ok: false,
    reason: REASON.channelVoucherSignature,
  })
  // it is checked before anything is held: a forged voucher never takes (nor waits for) the channel's lease
  expect(await store.lease(id, 'someone', Date.now() + 10_000, Date.now())).toBe(true)
  expect(await admitChannelPayment(rig.doors, bad as never, rig.requirements)).toMatchObject({
    reason: REASON.channelVoucherSignature,
  })
  await store.release(id, 'someone')
  // our requirements changed (another payTo): the channel is not ours
  const elsewhere = { ...rig.requirements, payTo: chain.settler.address }
  expect(await admitChannelPayment(rig.doors, d, elsewhere)).toMatchObject({
    ok: false,
    reason: REASON.channelReceiverMismatch,
  })
  // garbage is refused, never thrown
  expect(
    await admitChannelPayment(rig.doors, { ...d, payload: { type: 'voucher' } } as never, rig.requirements),
  ).toMatchObject({ ok: false, reason: REASON.channelPayload })
  expect((await store.get(id))!.charged).toBe(PRICE)
  // a deposit below the operator's minimum never reaches the chain
  const small = await channelPayer(chain, 1_000_000n)
  const settles = rig.facilitatorCalls.settle
  const strict = { ...rig.doors, minDeposit: 2n * DEPOSIT }
  expect(await admitChannelPayment(strict, await pay(small.client, rig.requirements), rig.requirements)).toMatchObject({
    ok: false,
    reason: REASON.channelDepositBelowMin,
  })
  expect(rig.facilitatorCalls.settle).toBe(settles)
})

test('a cooperative refund claims what was charged and returns the rest: partly, then all of it', async () => {
  const p = await channelPayer(chain, 1_000_000n)
  let first: PaymentPayload | undefined
  let id: Hex = '0x'
  for (let i = 0; i < 3; i++) {
    const payload = await pay(p.client, rig.requirements)
    const t = await admitted(payload)
    const c = await commitChannelCharge(rig.doors, t, PRICE, 'svc')
    if (!c.ok) throw new Error(c.reason)
    await hear(p.client, payload, rig.requirements, c.response)
    first ??= payload
    id = t.channelId
  }
  const channelConfig = (first!.payload as { channelConfig: unknown }).channelConfig
  const zero = async (amount?: bigint) => ({
    ...first!,
    payload: {
      type: 'refund',
      channelConfig,
      voucher: await signVoucher(p.account as never, id, String(3n * PRICE), 'eip155:8453'),
      ...(amount === undefined ? {} : { amount: String(amount) }),
    },
  })
  // a refund voucher that is not the charged total gets the corrective data
  const wrong = {
    ...first!,
    payload: {
      ...(await zero()).payload,
      voucher: await signVoucher(p.account as never, id, String(PRICE), 'eip155:8453'),
    },
  }
  expect(await refundChannelPayment(rig.doors, wrong as never, rig.requirements)).toMatchObject({
    ok: false,
    reason: REASON.channelCumulativeMismatch,
  })
  const payerBefore = await usdcBalance(chain.rpcUrl, p.account.address)
  const part = await refundChannelPayment(rig.doors, (await zero(10_000n)) as never, rig.requirements)
  if (!part.ok) throw new Error(part.reason)
  expect(part.response).toMatchObject({ amount: '10000', extra: { channelState: { chargedCumulativeAmount: '3000' } } })
  expect((part.response.extra as { chargedAmount?: string }).chargedAmount).toBeUndefined()
  expect(await store.get(id)).toMatchObject({ claimed: 3n * PRICE, balance: DEPOSIT - 10_000n, refundNonce: 1n })
  const rest = await refundChannelPayment(rig.doors, (await zero()) as never, rig.requirements)
  if (!rest.ok) throw new Error(rest.reason)
  expect(rest.response.amount).toBe(String(DEPOSIT - 10_000n - 3n * PRICE))
  expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(payerBefore + DEPOSIT - 3n * PRICE)
  expect(await store.get(id)).toMatchObject({ claimed: 3n * PRICE, balance: 3n * PRICE, refundNonce: 2n })
  // nothing left: refused, and the channel pays for nothing more
  expect(await refundChannelPayment(rig.doors, (await zero()) as never, rig.requirements)).toMatchObject({
    ok: false,
    reason: REASON.channelRefundNoBalance,
  })
})

test('a server that lost its channel records starts from the on-chain totalClaimed; the client recovers from the chain', async () => {
  const p = await channelPayer(chain, 1_000_000n)
  for (let i = 0; i < 2; i++) {
    const payload = await pay(p.client, rig.requirements)
    const t = await admitted(payload)
    const c = await commitChannelCharge(rig.doors, t, PRICE, 'svc')
    if (!c.ok) throw new Error(c.reason)
    await hear(p.client, payload, rig.requirements, c.response)
  }
  // the same facilitator and chain, an empty database
  const amnesiac = { ...rig.doors, store: new SqliteChannels(openDatabase(':memory:')) }
  const payload = await pay(p.client, rig.requirements)
  const refused = await admitChannelPayment(amnesiac, payload, rig.requirements)
  if (refused.ok) throw new Error('a voucher above the on-chain baseline was admitted')
  expect(refused.reason).toBe(REASON.channelCumulativeMismatch)
  expect(refused.channelState).toMatchObject({
    chargedCumulativeAmount: '0',
    totalClaimed: '0',
    balance: String(DEPOSIT),
  })
  expect(refused.voucherState).toBeUndefined()
  expect(await correct(p.client, rig.requirements, refused)).toBe(true)
  const retry = await pay(p.client, rig.requirements)
  const a = await admitChannelPayment(amnesiac, retry, rig.requirements)
  if (!a.ok) throw new Error(a.reason)
  expect(a.ticket.base).toBe(0n)
  expect((await commitChannelCharge(amnesiac, a.ticket, PRICE, 'svc')).ok).toBe(true)
  expect((await amnesiac.store.get(a.ticket.channelId))!.charged).toBe(PRICE)
})

test("a channel whose payer's timed withdrawal is about to complete pays for nothing more", async () => {
  const p = await channelPayer(chain, 1_000_000n)
  const d = await pay(p.client, rig.requirements)
  const t = await admitted(d)
  const c = await commitChannelCharge(rig.doors, t, PRICE, 'svc')
  if (!c.ok) throw new Error(c.reason)
  await hear(p.client, d, rig.requirements, c.response)
  const kept = (await store.get(t.channelId))!
  const nowS = Math.floor(Date.now() / 1000)
  // the watch saw a withdrawal started just now: the channel still pays (the claim engine claims it at once)
  await store.mirror(kept.id, { ...kept, withdrawRequestedAt: nowS, syncedAt: Date.now() })
  const v = await pay(p.client, rig.requirements)
  const a = await admitted(v)
  await releaseChannel(rig.doors, a)
  // one that can complete within WITHDRAW_MARGIN_S: refused, nothing charged
  await store.mirror(kept.id, { ...kept, withdrawRequestedAt: nowS - 900 + 60, syncedAt: Date.now() })
  expect(await admitChannelPayment(rig.doors, v, rig.requirements)).toMatchObject({
    ok: false,
    reason: REASON.channelExceedsBalance,
  })
  expect((await store.get(kept.id))!.charged).toBe(PRICE)
})
