/**
 * Payment channels over a remote facilitator (issue #26): the official x402 facilitator with the official
 * `batch-settlement` facilitator scheme, served over HTTP on the dev chain (test/support/official-facilitator.ts), and
 * this server with FACILITATOR_URL only (no settler). Boot reads its /supported: where it lists batch-settlement, the
 * 402 offers channels and deposits, claims and the sweep go through it (its /settle calls counted); where it does
 * not, the 402 offers `exact` only. Both receiver-authorizer modes: ours (CHANNEL_RECEIVER_AUTHORIZER_KEY: this server
 * signs claims and refunds, the remote relays) and the one the remote advertises (the remote signs).
 * Money check: payee's on-chain delta = swept = the sum of the charges = /stats figures.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { loadConfig } from '../../runtime/config'
import { createLogger } from '../../runtime/log'
import { remoteFacilitators } from '../../runtime/pay/facilitator/remote-setup'
import { channelPayer, clientFor, NETWORK } from '../support/channels'
import { withEcho } from '../support/extra-service'
import { startOfficialFacilitator, type OfficialFacilitator } from '../support/official-facilitator'
import { startServerOnChain } from '../support/on-chain'
import { decodeB64Json, type TestServer } from '../support/server'
import { until } from '../support/until'

const PRICE = 4200n // test-echo: $0.0042
const MIN_DEPOSIT = 100_000n // CHANNEL_MIN_DEPOSIT_USD 0.1

let chain: DevChain
const remotes: OfficialFacilitator[] = []
const servers: TestServer[] = []

beforeAll(async () => {
  chain = await startDevChain()
})
afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => {})
  for (const r of remotes) r.stop()
  await chain?.stop()
})

const remote = (channels?: { authorizerKey?: Hex }, down = false) => {
  const r = startOfficialFacilitator(chain.rpcUrl, chain.settler.privateKey as Hex, channels ? { channels } : {})
  r.supportedDown = down
  remotes.push(r)
  return r
}

/** A server whose only payment backend is the remote facilitator at `url`, as `bun start` builds it. */
async function serverOver(url: string, env: Record<string, string> = {}) {
  const all = { PAY_TO: chain.payee.address, FACILITATOR_URL: url, CHANNEL_MIN_DEPOSIT_USD: '0.1', ...env }
  const { config, problems } = loadConfig(all)
  expect(problems).toEqual([])
  const facilitator = remoteFacilitators(config, createLogger('silent'), { settleTimeoutMs: 20_000 })
  const s = await startServerOnChain(chain, { entries: withEcho(), facilitator, env: all })
  servers.push(s)
  return s
}

const acceptsOf = async (s: TestServer) => {
  const res = await s.post('/api/v1/test-echo', { code: 'hi' })
  expect(res.status).toBe(402)
  return decodeB64Json(res.headers.get('payment-required')).accepts as any[]
}

/**
 * Each payer of `plan` pays its calls by channel with the official client (then, with `refund`, takes the unclaimed
 * rest back with the client's cooperative refund); then the server stops (claims and sweep). The run's books.
 */
async function payAndStop(s: TestServer, r: OfficialFacilitator, plan: Array<{ calls: number; refund?: boolean }>) {
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  let charged = 0n
  let refunds = 0
  for (const { calls, refund } of plan) {
    const payer = await channelPayer(chain, 1_000_000n)
    const scheme = clientFor(chain.rpcUrl, payer.key)
    const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, scheme))
    let mine = 0n
    for (let i = 0; i < calls; i++) {
      const res = await pay(`${s.url}/api/v1/test-echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: `call ${i}` }),
      })
      expect(res.status).toBe(200)
      const p = decodePaymentResponseHeader(res.headers.get('payment-response')!)
      expect(p).toMatchObject({ success: true, network: NETWORK })
      if (i > 0) expect(p.transaction).toBe('')
      mine += BigInt((p.extra as { chargedAmount: string }).chargedAmount)
    }
    expect(mine).toBe(BigInt(calls) * PRICE)
    charged += mine
    expect(await usdcBalance(chain.rpcUrl, payer.account.address)).toBe(1_000_000n - MIN_DEPOSIT)
    if (refund) {
      // the refund claims what is charged and returns the rest, in one transaction through the remote
      expect(await scheme.refund(`${s.url}/api/v1/test-echo`)).toMatchObject({
        success: true,
        amount: String(MIN_DEPOSIT - mine),
      })
      expect(await usdcBalance(chain.rpcUrl, payer.account.address)).toBe(1_000_000n - mine)
      refunds++
    }
  }
  // one deposit per payer went through the remote; the vouchers did not call it
  expect(r.settles).toEqual({ deposit: plan.length, ...(refunds ? { refund: refunds } : {}) })

  const result = await s.booted.channels!.stop()
  expect(result.failures).toBe(0)
  const claims = plan.length - refunds
  expect(r.settles).toEqual({
    deposit: plan.length,
    ...(refunds ? { refund: refunds } : {}),
    ...(claims ? { claim: 1 } : {}),
    settle: 1,
  })
  const stats = ((await (await s.fetch('/stats')).json()) as any).channels
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore
  expect(delta).toBe(charged)
  expect(stats).toMatchObject({
    channels: plan.length,
    paid_calls: plan.reduce((a, p) => a + p.calls, 0),
    earned_atomic: String(charged),
    claimed_atomic: String(charged),
    swept_atomic: String(delta),
    deposited_atomic: String(MIN_DEPOSIT * BigInt(plan.length)),
    txs: {
      deposit: plan.length,
      claim: (claims ? 1 : 0) + refunds,
      sweep: 1,
      ...(refunds ? { refund: refunds } : {}),
    },
  })
  expect(await s.booted.storage.ledger.settledTotal()).toBe(0n)
  await s.stop()
  servers.splice(servers.indexOf(s), 1)
}

test('ours signs: the 402 offers channels with our receiver authorizer; deposits, a cooperative refund, the claim and the sweep go through the remote, which only relays our signatures', async () => {
  const r = remote({})
  const key = generatePrivateKey()
  const s = await serverOver(r.url, { CHANNEL_RECEIVER_AUTHORIZER_KEY: key, RPC_URL: chain.rpcUrl })
  const accepts = await acceptsOf(s)
  expect(accepts.map((a) => a.scheme)).toEqual(['exact', 'batch-settlement'])
  expect(accepts[1]).toMatchObject({ payTo: chain.payee.address, amount: String(PRICE) })
  expect(accepts[1].extra).toMatchObject({
    receiverAuthorizer: privateKeyToAccount(key).address,
    minDeposit: String(MIN_DEPOSIT),
  })
  expect(s.logs.some((l) => l.includes('no watch of timed withdrawals'))).toBe(false)
  await payAndStop(s, r, [{ calls: 3, refund: true }, { calls: 2 }])
  expect(r.signedByServer).toBe(2) // the refund and the claim carried our signatures
}, 60_000)

test('the remote signs: with no key of ours, the receiver authorizer is the one the remote advertises; no RPC URL (no watch)', async () => {
  const authorizerKey = generatePrivateKey()
  const r = remote({ authorizerKey })
  const s = await serverOver(r.url)
  const accepts = await acceptsOf(s)
  expect(accepts[1].extra.receiverAuthorizer).toBe(privateKeyToAccount(authorizerKey).address)
  const services = (await (await s.fetch('/services')).json()) as any
  expect(services.batch_settlement.receiver_authorizer).toBe(privateKeyToAccount(authorizerKey).address)
  // no RPC URL: the claim engine has no watch of timed withdrawals, said at boot (docs/channels.md)
  expect(s.logs.some((l) => l.includes('no watch of timed withdrawals'))).toBe(true)
  await payAndStop(s, r, [{ calls: 2, refund: true }, { calls: 1 }])
  expect(r.signedByServer).toBe(0)
}, 60_000)

test('a remote that does not list batch-settlement, or lists it with no authorizer while we have none: the 402 offers exact only', async () => {
  const plain = remote()
  const s = await serverOver(plain.url)
  expect((await acceptsOf(s)).map((a) => a.scheme)).toEqual(['exact'])
  expect(s.booted.channels).toBeUndefined()
  expect(((await (await s.fetch('/services')).json()) as any).schemes).toEqual(['exact'])
  expect(s.logs.some((l) => l.includes('do not list batch-settlement'))).toBe(true)

  const unsigned = remote({})
  const t = await serverOver(unsigned.url)
  expect((await acceptsOf(t)).map((a) => a.scheme)).toEqual(['exact'])
  expect(t.logs.some((l) => l.includes('advertises no receiverAuthorizer'))).toBe(true)
  // a batch-settlement payment there is refused (402), and no facilitator is asked to verify or settle it
  const accepted = { ...(await acceptsOf(t))[0], scheme: 'batch-settlement' }
  const header = Buffer.from(JSON.stringify({ x402Version: 2, accepted, payload: {} })).toString('base64')
  const res = await t.post('/api/v1/test-echo', { code: 'x' }, { 'payment-signature': header })
  expect(res.status).toBe(402)
  expect(unsigned.calls.verify + unsigned.calls.settle).toBe(0)
})

test('a remote that does not answer /supported at boot is asked again; once it lists batch-settlement, the 402 and the published terms offer channels', async () => {
  const r = remote({}, true)
  const key = generatePrivateKey()
  const s = await serverOver(r.url, { CHANNEL_RECEIVER_AUTHORIZER_KEY: key, RPC_URL: chain.rpcUrl })
  expect((await acceptsOf(s)).map((a) => a.scheme)).toEqual(['exact'])
  expect(s.logs.some((l) => l.includes('did not answer /supported'))).toBe(true)
  expect(((await (await s.fetch('/services')).json()) as any).schemes).toEqual(['exact'])
  r.supportedDown = false
  await until(async () => (await acceptsOf(s)).length === 2, 30_000, 'channels offered after /supported answered')
  expect((await acceptsOf(s))[1].extra.receiverAuthorizer).toBe(privateKeyToAccount(key).address)
  const services = (await (await s.fetch('/services')).json()) as any
  expect(services.batch_settlement.receiver_authorizer).toBe(privateKeyToAccount(key).address)
  expect(await (await s.fetch('/llms.txt')).text()).toContain('offers `batch-settlement`')
  await payAndStop(s, r, [{ calls: 2 }])
}, 60_000)

test('with an RPC URL the remote’s answers are checked on chain: a deposit it reports but never sent is refused, nothing served or charged', async () => {
  const r = remote({})
  // a facilitator in front of it that answers a deposit's /settle with a success it never sent (a made-up transaction)
  const liar = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      const body = req.method === 'POST' ? await req.text() : undefined
      const parsed = body ? JSON.parse(body) : undefined
      if (path === '/settle' && parsed?.paymentPayload?.payload?.type === 'deposit')
        return Response.json({
          success: true,
          transaction: `0x${'ab'.repeat(32)}`,
          network: NETWORK,
          payer: parsed.paymentPayload.payload.deposit?.authorization?.from,
          amount: parsed.paymentPayload.payload.deposit?.amount,
          extra: { channelState: { balance: '100000', totalClaimed: '0', withdrawRequestedAt: 0, refundNonce: '0' } },
        })
      return fetch(r.url + path, { method: req.method, headers: req.headers, body })
    },
  })
  try {
    const s = await serverOver(`http://127.0.0.1:${liar.port}`, {
      CHANNEL_RECEIVER_AUTHORIZER_KEY: generatePrivateKey(),
      RPC_URL: chain.rpcUrl,
    })
    const payer = await channelPayer(chain, 1_000_000n)
    const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, payer.key)))
    const res = await pay(`${s.url}/api/v1/test-echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'x' }),
    })
    expect(res.status).toBe(402)
    expect(await usdcBalance(chain.rpcUrl, payer.account.address)).toBe(1_000_000n)
    expect(await s.booted.storage.channels.totals()).toMatchObject({ channels: 0, earned: 0n, deposited: 0n })
  } finally {
    liar.stop(true)
  }
}, 60_000)
