/**
 * A timed withdrawal finalized with no pause after the last voucher (issue #32 item 9), on the dev chain with the
 * official client through the doors and the claim engine, the engine's and the doors' clocks on the chain's time
 * (anvil's clock jumps with `evm_increaseTime`): the payer starts a withdrawal, keeps paying, sends its last voucher
 * at the first moment it can finalize and finalizes at once. Every voucher served was served at least
 * WITHDRAW_MARGIN_S before the withdrawal could complete and was claimed in that margin; the last one is refused;
 * the finalize returns only what was never charged. And a server whose watch of the chain stopped (its mirror older
 * than the withdrawal delay) reads the chain again before it serves, so it is not blind to a withdrawal about to
 * complete. Books after each: charged = claimed = swept = payee's on-chain delta; payer's USDC = funded − charged.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { PaymentPayload } from '@x402/core/types'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { Channels as SqliteChannels } from '../../runtime/db/sqlite/channels'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { ChannelClaimer } from '../../runtime/pay/schemes/batch-settlement/claimer'
import {
  admitChannelPayment,
  commitChannelCharge,
  WITHDRAW_MARGIN_S,
} from '../../runtime/pay/schemes/batch-settlement/doors'
import { REASON } from '../../runtime/pay/reasons'
import { channelPayer, channelRig, DEPOSIT, hear, pay, payerWallet, PRICE, type ChannelRig } from '../support/channels'

const FUNDED = 1_000_000n
let chain: DevChain
let rig: ChannelRig
let store = new SqliteChannels(openDatabase(':memory:'))
/** The doors' and the engine's clock: the chain's time (ms), moved with the chain. */
const clock = { ms: 0 }

const rpc = async (method: string, params: unknown[] = []) =>
  (
    (await (
      await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
    ).json()) as { result: unknown }
  ).result
/** Mines a block `s` seconds later and sets the clock to its time. */
async function later(s: number) {
  await rpc('evm_increaseTime', [s])
  await rpc('evm_mine')
  clock.ms =
    Number(BigInt(((await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string }).timestamp)) * 1000
}

/** A fresh dev chain (the payer's authorizations are dated by the real clock, which a jumped chain left behind). */
async function fresh() {
  rig?.settler.close()
  await chain?.stop()
  chain = await startDevChain()
  store = new SqliteChannels(openDatabase(':memory:'))
  rig = channelRig(chain, store) // withdrawDelay 900 s
  rig.doors.now = () => clock.ms
  await later(0)
}

beforeAll(fresh)
afterAll(() => {
  rig?.settler.close()
  return chain?.stop()
})

type Payer = Awaited<ReturnType<typeof channelPayer>> & { id?: Hex; first?: PaymentPayload }

/** One voucher-paid call: its charge, or the refusal's reason. */
async function call(p: Payer): Promise<bigint | string> {
  const payload = await pay(p.client, rig.requirements)
  const a = await admitChannelPayment(rig.doors, payload, rig.requirements)
  if (!a.ok) return a.reason
  const c = await commitChannelCharge(rig.doors, a.ticket, PRICE, 'svc')
  if (!c.ok) return c.reason
  await hear(p.client, payload, rig.requirements, c.response)
  p.id = a.ticket.channelId
  p.first ??= payload
  return PRICE
}

const engine = (watching = true) =>
  new ChannelClaimer({
    store,
    facilitator: rig.facilitator,
    rpc: watching ? rig.settler.rpc : undefined,
    requirements: rig.requirements,
    gasOf: rig.gasOf,
    now: () => clock.ms,
    // nothing is due by amount or age here: only the withdrawal makes a channel due
    policy: { claimThreshold: 10n ** 12n, claimIntervalMs: 86_400_000, sweepThreshold: 10n ** 12n },
  })

test('the last voucher at the first moment the payer can finalize is refused; finalize at once takes only what was never charged', async () => {
  const payee0 = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const p: Payer = await channelPayer(chain, FUNDED)
  expect(await call(p)).toBe(PRICE) // the deposit
  expect(await call(p)).toBe(PRICE)
  const config = (p.first!.payload as { channelConfig: { withdrawDelay: number } }).channelConfig
  const claimer = engine()
  const wallet = payerWallet(chain, p.key)
  await wallet('initiateWithdraw', [config, DEPOSIT])
  await later(1)
  // the engine's watch sees the withdrawal and claims at once
  let r = await claimer.round({ watch: true })
  expect(r.claims).toEqual([{ tx: expect.any(String), channels: 1, amount: 2n * PRICE }])
  const kept = (await store.get(p.id!))!
  expect(kept.withdrawRequestedAt).toBeGreaterThan(0)
  const finalizableAt = (kept.withdrawRequestedAt + config.withdrawDelay) * 1000
  // still paying during the delay, up to WITHDRAW_MARGIN_S before it can complete; each claimed by the next round
  await later(Math.floor((finalizableAt - clock.ms) / 1000) - WITHDRAW_MARGIN_S - 2)
  expect(await call(p)).toBe(PRICE)
  r = await claimer.round()
  expect(r.claims).toEqual([{ tx: expect.any(String), channels: 1, amount: PRICE }])
  // inside the margin: refused, nothing charged
  await later(WITHDRAW_MARGIN_S)
  expect(await call(p)).toBe(REASON.channelExceedsBalance)
  // the first moment it can finalize: a last voucher, then finalize with no pause
  await later(Math.max(0, Math.ceil((finalizableAt - clock.ms) / 1000)))
  expect(await call(p)).toBe(REASON.channelExceedsBalance)
  const payerBefore = await usdcBalance(chain.rpcUrl, p.account.address)
  await wallet('finalizeWithdraw', [config])
  const charged = 3n * PRICE
  expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(payerBefore + DEPOSIT - charged)
  expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(FUNDED - charged)
  // the books: everything charged was claimed before the finalize; swept at shutdown
  await claimer.stop()
  const t = await store.totals()
  expect(t).toMatchObject({ earned: charged, claimed: charged, swept: charged })
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payee0).toBe(charged)
})

test('a server whose watch stopped reads the chain again before serving: a withdrawal about to complete is seen', async () => {
  await fresh()
  const payee0 = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const swept0 = (await store.totals()).swept
  const p: Payer = await channelPayer(chain, FUNDED)
  expect(await call(p)).toBe(PRICE)
  const config = (p.first!.payload as { channelConfig: { withdrawDelay: number } }).channelConfig
  // the engine claims what was charged (at shutdown here), but it has no watch: the mirror shows no withdrawal
  const claimer = engine(false)
  await payerWallet(chain, p.key)('initiateWithdraw', [config, DEPOSIT])
  expect((await store.get(p.id!))!.withdrawRequestedAt).toBe(0)
  await claimer.round({ all: true })
  // the payer waits until it can finalize, sends a voucher and finalizes at once
  await later(config.withdrawDelay + 1)
  expect(await call(p)).toBe(REASON.channelExceedsBalance) // the stale mirror was read again from the chain
  expect((await store.get(p.id!))!.withdrawRequestedAt).toBeGreaterThan(0)
  await payerWallet(chain, p.key)('finalizeWithdraw', [config])
  expect(await usdcBalance(chain.rpcUrl, p.account.address)).toBe(FUNDED - PRICE)
  await claimer.stop()
  const t = await store.totals()
  expect(t.claimed).toBe(t.earned)
  expect(t.swept - swept0).toBe(PRICE)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payee0).toBe(PRICE)
})
