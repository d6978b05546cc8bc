/**
 * Recovery of a payment whose row is `settling` without a usable tx hash (a power cut right after the durable
 * settling commit, a dropped transaction, a facilitator that never answered) searches the token's logs only over the
 * blocks mined while the authorization was usable: [max(validAfter, received) - margin, validBefore + margin], found
 * by timestamp whatever the head is now. Real anvil (cancun: anvil mines tens of thousands of blocks fast there),
 * RPC calls counted at a proxy, books checked against the chain.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { createLocalFacilitator } from '../../runtime/pay/facilitator/local'
import { createChainStatus } from '../../runtime/pay/facilitator/chain-status'
import { reconcile } from '../../runtime/pay/schemes/exact/reconcile'
import { BlockClock, latestBlock } from '../../runtime/pay/facilitator/settle/blocks'
import { createRpc } from '../../runtime/pay/facilitator/settle/rpc'
import type { DecodedPayment, Facilitator, PaymentRequirements } from '../../runtime/pay/types'
import { startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { startApp, type TestServer } from '../support/server'
import { requirements } from '../support/pay'
import { until } from '../support/until'
import { payment, rpc, settlerKeys, submitElsewhere as submitTo } from './helpers'
import { sqliteOf } from '../../runtime/db/open'

type Env = { chain: DevChain; proxy: FaultProxy; f: Facilitator; s: TestServer; req: PaymentRequirements }
let env: Env | undefined

/** A fresh chain per test (the tests move the chain's clock), the facilitator's RPC behind a counting proxy. */
async function setup(): Promise<Env> {
  const chain = await startDevChain({ payerUsdc: 10_000_000n, hardfork: 'cancun' })
  const proxy = startFaultProxy(chain.rpcUrl)
  const f = createLocalFacilitator({
    rpcUrl: proxy.url,
    settlerKey: chain.settler.privateKey,
    chainId: 8453,
    pollingIntervalMs: 20,
    blockTimeMs: 2_000,
  })
  const s = await startApp({ facilitator: f, payTo: chain.payee.address, env: { PAY_TO: chain.payee.address } })
  env = { chain, proxy, f, s, req: requirements(chain.payee.address) }
  return env
}
afterEach(async () => {
  if (!env) return
  await env.s.stop()
  env.proxy.stop()
  await env.chain.stop()
  env = undefined
})

/** Submits an authorization from a third party's wallet; resolves once mined. */
async function submitElsewhere(chain: DevChain, p: DecodedPayment, key: Hex): Promise<Hex> {
  const hash = await submitTo(chain.rpcUrl, p, key)
  await until(async () => !!(await rpc(chain.rpcUrl, 'eth_getTransactionReceipt', [hash])), 20_000, 'mined')
  return hash
}

/** A ledger row left `settling` without a tx hash, as the gate writes it (created now: the payment just arrived). */
async function settlingRow(s: TestServer, p: DecodedPayment, req: PaymentRequirements): Promise<number> {
  const a = p.payload.authorization
  const id = sqliteOf(s.booted).ledger.reserve({
    payer: a.from,
    nonce: a.nonce,
    slug: 'slugify',
    tier: 'flat',
    amount: req.amount,
    network: req.network,
    requestId: `r-${a.nonce.slice(2, 10)}`,
    validBefore: Number(a.validBefore),
    x402Version: 2,
    payload: p.raw,
    requirements: req,
  })!
  sqliteOf(s.booted).ledger.transition(id, 'verified')
  await sqliteOf(s.booted).ledger.transition(id, 'settling')
  return id
}

/** The server is down: `blocks` empty blocks, `interval` seconds apart, after a jump of `jumpS` seconds. */
async function downFor(chain: DevChain, blocks: number, interval = 2, jumpS = 0): Promise<void> {
  if (jumpS) {
    await rpc(chain.rpcUrl, 'evm_increaseTime', [jumpS])
    await rpc(chain.rpcUrl, 'evm_mine')
  }
  await rpc(chain.rpcUrl, 'anvil_mine', [`0x${blocks.toString(16)}`, `0x${interval.toString(16)}`])
}

const head = async (url: string) => Number(BigInt(await rpc<string>(url, 'eth_blockNumber')))
const revenueAtomic = async (s: TestServer) =>
  BigInt(((await (await s.fetch('/stats/today')).json()) as any).totals.revenue_atomic)

/** Reconciles everything through the proxy, counting RPC calls from here. */
async function reconcileCounted(e: Env) {
  e.proxy.calls.clear()
  const out = await reconcile(e.s.booted.storage.ledger, e.f, e.s.booted.log, 0)
  return { out, logs: e.proxy.calls.get('eth_getLogs') ?? 0, blocks: e.proxy.calls.get('eth_getBlockByNumber') ?? 0 }
}

describe('recovery searches the blocks mined while the authorization was usable', () => {
  test('a payment found after 6,000 more blocks (3.3 h down): settled with its tx, one eth_getLogs, books = chain', async () => {
    const e = await setup()
    const [third] = await settlerKeys(e.chain.rpcUrl, 1)
    const before = await usdcBalance(e.chain.rpcUrl, e.chain.payee.address)
    const p = await payment(e.chain.payer.privateKey, e.req)
    const id = await settlingRow(e.s, p, e.req)
    const tx = await submitElsewhere(e.chain, p, third)
    await downFor(e.chain, 6_000)
    expect(await head(e.chain.rpcUrl)).toBeGreaterThan(6_000)

    const { out, logs, blocks } = await reconcileCounted(e)
    expect(out).toMatchObject({ settled: 1, failed: 0, unknown: 0 })
    expect(sqliteOf(e.s.booted).ledger.get(id)).toMatchObject({ state: 'settled', tx_hash: tx })
    expect(logs).toBe(1) // the old search from the head: 4 windows of 2,000 blocks, 3 of them where it cannot be
    expect(blocks).toBeLessThanOrEqual(6) // the head and a few blocks found by timestamp
    // books = chain
    sqliteOf(e.s.booted).stats.flush()
    expect(await revenueAtomic(e.s)).toBe(1000n)
    expect(sqliteOf(e.s.booted).ledger.settledTotal()).toBe(1000n)
    expect((await usdcBalance(e.chain.rpcUrl, e.chain.payee.address)) - before).toBe(1000n)
  }, 60_000)

  test('used 50,000 blocks and two days ago (server down for days): settled by reconciliation with the right tx', async () => {
    const e = await setup()
    const [third] = await settlerKeys(e.chain.rpcUrl, 1)
    const before = await usdcBalance(e.chain.rpcUrl, e.chain.payee.address)
    const p = await payment(e.chain.payer.privateKey, e.req)
    const id = await settlingRow(e.s, p, e.req)
    const tx = await submitElsewhere(e.chain, p, third)
    const receivedAt = sqliteOf(e.s.booted).ledger.get(id)!.created_at
    // two days without blocks' worth of time (a jump), then 50,000 blocks 2 s apart: about 3.2 days in all
    await downFor(e.chain, 50_000, 2, 2 * 86_400)
    expect(await head(e.chain.rpcUrl)).toBeGreaterThan(50_000)

    // the remote-facilitator path (RPC_URL beside FACILITATOR_URL) reads the same proof
    const remote = createChainStatus(e.proxy.url)
    expect(await remote('', p, e.req, receivedAt)).toEqual({ state: 'settled', tx })
    // without the row's time, the requirements' maxTimeoutSeconds bounds it as well
    expect(await remote('', p, e.req)).toEqual({ state: 'settled', tx })

    const { out, logs, blocks } = await reconcileCounted(e)
    expect(out).toMatchObject({ settled: 1, failed: 0, unknown: 0 })
    expect(sqliteOf(e.s.booted).ledger.get(id)).toMatchObject({ state: 'settled', tx_hash: tx })
    expect(logs).toBe(1)
    expect(blocks).toBeLessThanOrEqual(12) // a time jump defeats interpolation: bisection steps bound it
    sqliteOf(e.s.booted).stats.flush()
    expect(await revenueAtomic(e.s)).toBe(1000n)
    expect(sqliteOf(e.s.booted).ledger.settledTotal()).toBe(1000n)
    expect((await usdcBalance(e.chain.rpcUrl, e.chain.payee.address)) - before).toBe(1000n)
  }, 120_000)

  test('a row written by a clock running ahead of the chain: the window misses, one search back from the head finds it', async () => {
    const e = await setup()
    const [third] = await settlerKeys(e.chain.rpcUrl, 1)
    const p = await payment(e.chain.payer.privateKey, e.req)
    const id = await settlingRow(e.s, p, e.req)
    const tx = await submitElsewhere(e.chain, p, third)
    await downFor(e.chain, 300)
    // the row says it arrived 10 minutes after the chain's time of its use (a server clock 10 min ahead)
    const aheadMs = sqliteOf(e.s.booted).ledger.get(id)!.created_at + 600_000
    e.proxy.calls.clear()
    expect(await createChainStatus(e.proxy.url)('', p, e.req, aheadMs)).toEqual({ state: 'settled', tx })
    expect(e.proxy.calls.get('eth_getLogs')).toBeLessThanOrEqual(2)
  }, 60_000)

  test('the authorization used in the window to pay someone else: failed with that tx, nothing counted', async () => {
    const e = await setup()
    const [third] = await settlerKeys(e.chain.rpcUrl, 1)
    const before = await usdcBalance(e.chain.rpcUrl, e.chain.payee.address)
    const p = await payment(e.chain.payer.privateKey, e.req)
    const id = await settlingRow(e.s, p, e.req)
    // the payer burns the nonce with another authorization paying himself 1 unit
    const burn = await payment(e.chain.payer.privateKey, e.req, {
      nonce: p.payload.authorization.nonce,
      to: e.chain.payer.address,
      value: '1',
    })
    const burnTx = await submitElsewhere(e.chain, burn, third)
    await downFor(e.chain, 3_000)

    const remote = createChainStatus(e.proxy.url)
    expect(await remote('', p, e.req, sqliteOf(e.s.booted).ledger.get(id)!.created_at)).toEqual({
      state: 'failed',
      tx: burnTx,
    })
    const { out, logs } = await reconcileCounted(e)
    expect(out).toMatchObject({ settled: 0, failed: 1, unknown: 0 })
    expect(sqliteOf(e.s.booted).ledger.get(id)).toMatchObject({
      state: 'failed',
      reason: `authorization used by ${burnTx}, which did not pay us (reconciled)`,
    })
    expect(logs).toBe(1)
    sqliteOf(e.s.booted).stats.flush()
    expect(await revenueAtomic(e.s)).toBe(0n)
    expect(sqliteOf(e.s.booted).ledger.settledTotal()).toBe(0n)
    expect((await usdcBalance(e.chain.rpcUrl, e.chain.payee.address)) - before).toBe(0n)
  }, 60_000)

  test('unused: unknown while the chain has not passed validBefore, failed once its head has (our clock still before it)', async () => {
    const e = await setup()
    const nowS = Math.floor(Date.now() / 1000)
    const p = await payment(e.chain.payer.privateKey, e.req, { validBefore: nowS + 600 })
    const id = await settlingRow(e.s, p, e.req)
    await downFor(e.chain, 100)

    let r = await reconcileCounted(e)
    expect(r.out).toMatchObject({ settled: 0, failed: 0, unknown: 1 })
    expect(sqliteOf(e.s.booted).ledger.get(id)!.state).toBe('settling')
    expect(r.logs).toBe(0) // unused: nothing to search

    // the chain's clock passes validBefore: no later block can use it (FiatToken requires timestamp < validBefore)
    await downFor(e.chain, 10, 2, 700)
    expect(Math.floor(Date.now() / 1000)).toBeLessThan(nowS + 600)
    r = await reconcileCounted(e)
    expect(r.out).toMatchObject({ settled: 0, failed: 1, unknown: 0 })
    expect(sqliteOf(e.s.booted).ledger.get(id)!.state).toBe('failed')
    expect(sqliteOf(e.s.booted).ledger.settledTotal()).toBe(0n)
  }, 60_000)

  test('unused, and the chain is past validBefore: failed', async () => {
    const e = await setup()
    const p = await payment(e.chain.payer.privateKey, e.req, { validBefore: Math.floor(Date.now() / 1000) - 5 })
    const id = await settlingRow(e.s, p, e.req)
    const { out, logs } = await reconcileCounted(e)
    expect(out).toMatchObject({ settled: 0, failed: 1, unknown: 0 })
    expect(sqliteOf(e.s.booted).ledger.get(id)!.state).toBe('failed')
    expect(logs).toBe(0)
  }, 60_000)

  test('unused, our clock just past validBefore but no block says so: unknown (its transfer can still land)', async () => {
    const e = await setup()
    // the chain's newest block is before validBefore; only our clock has passed it (a clock ahead of the chain, or
    // an RPC whose latest block lags): a block mined now could still use the authorization
    const head = await latestBlock(createRpc(e.chain.rpcUrl))
    const validBefore = head.timestamp + 2
    const p = await payment(e.chain.payer.privateKey, e.req, { validBefore })
    const id = await settlingRow(e.s, p, e.req)
    await until(() => Date.now() / 1000 > validBefore + 1, 15_000, 'our clock past validBefore')
    const { out } = await reconcileCounted(e)
    expect((await latestBlock(createRpc(e.chain.rpcUrl))).timestamp).toBeLessThan(validBefore)
    expect(out).toMatchObject({ settled: 0, failed: 0, unknown: 1 })
    expect(sqliteOf(e.s.booted).ledger.get(id)!.state).toBe('settling')
  }, 60_000)
})

describe('finding blocks by timestamp', () => {
  test('the span holds every block whose timestamp is in range (checked block by block), a few extra at most', async () => {
    const chain = await startDevChain({ hardfork: 'cancun' })
    env = undefined
    try {
      // uneven history: 2 s blocks, a day's jump, blocks sharing one timestamp, 12 s blocks, another jump
      await downFor(chain, 400, 2)
      await downFor(chain, 300, 1, 86_400)
      await rpc(chain.rpcUrl, 'anvil_mine', ['0x64'])
      await downFor(chain, 300, 12)
      await downFor(chain, 200, 2, 3_600)
      const top = await head(chain.rpcUrl)
      const times: number[] = []
      for (let n = 0; n <= top; n++)
        times.push(
          Number(BigInt((await rpc(chain.rpcUrl, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).timestamp)),
        )
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1])
      const node = createRpc(chain.rpcUrl)
      const latest = await latestBlock(node)
      expect(latest).toEqual({ number: top, timestamp: times[top] })
      // ranges around every kind of segment, from before genesis to past the head
      const t0 = times[0]
      const tTop = times[top]
      const ranges: Array<[number, number]> = [
        [t0 - 1_000, t0 + 100],
        [t0 + 200, t0 + 320],
        [times[400] - 10, times[400] + 10],
        [times[401], times[401]],
        [times[700] - 50, times[700] + 5],
        [times[750], times[760] + 100],
        [times[1000] - 30, times[1000] + 90],
        [times[1005], times[1200] + 1],
        [tTop - 120, tTop + 600],
        [tTop + 1, tTop + 600],
        [t0 + 50_000, t0 + 50_060], // inside the day's jump: no block
      ]
      for (const [from, to] of ranges) {
        const clock = new BlockClock(node, latest, 2)
        const span = await clock.span(from, to)
        const inRange = times.flatMap((t, n) => (t >= from && t <= to ? [n] : []))
        if (!inRange.length) {
          // nothing mined in the range: no span, or one with no block in range (the gap's neighbours)
          if (span) expect(span.to - span.from).toBeLessThanOrEqual(128)
          continue
        }
        expect(span).not.toBeNull()
        expect(span!.from).toBeLessThanOrEqual(inRange[0])
        expect(span!.to).toBeGreaterThanOrEqual(inRange.at(-1)!)
        expect(inRange[0] - span!.from).toBeLessThanOrEqual(64)
        expect(span!.to - inRange.at(-1)!).toBeLessThanOrEqual(64)
        expect(clock.reads).toBeLessThanOrEqual(16)
      }
    } finally {
      await chain.stop()
    }
  }, 120_000)
})
