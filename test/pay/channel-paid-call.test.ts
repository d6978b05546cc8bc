/**
 * x402 `batch-settlement` wired into the paid call, over HTTP on the dev chain with the official client
 * (`@x402/fetch` + `@x402/evm/batch-settlement/client`): the 402 offers `exact` first and `batch-settlement` second;
 * a payer deposits once, then pays with vouchers answered with `transaction: ""`; a failed call charges nothing; a
 * client that lost its state recovers through the corrective 402; the client's cooperative refund (GET probe, then
 * a refund payload) returns the unclaimed rest; at shutdown the claim engine claims and sweeps.
 * Money check: payee's on-chain delta = exact revenue (/stats = ledger) + swept, and swept = the sum of the charges.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { concat, keccak256, toHex, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { loadConfig } from '../../runtime/config'
import { createRpc } from '../../runtime/pay/facilitator/settle/rpc'
import { Settler } from '../../runtime/pay/facilitator/settle/settler'
import { AUTHORIZER_LABEL, localChannelBackend } from '../../runtime/pay/schemes/batch-settlement/facilitator'
import { channelPayer, channelReceipt, clientFor, NETWORK } from '../support/channels'
import { withEcho } from '../support/extra-service'
import { startServerOnChain, stopAndTallySchemes } from '../support/on-chain'
import { payingFetch } from '../support/paying-fetch'
import { decodeB64Json, type TestServer } from '../support/server'

const PRICE = 4200n // test-echo: $0.0042
const MIN_DEPOSIT = 100_000n // CHANNEL_MIN_DEPOSIT_USD 0.1
const ADMIN_TOKEN = 'channel-paid-call-test-admin-token-0123'

let chain: DevChain
let s: TestServer
let payeeBefore: bigint

beforeAll(async () => {
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  s = await startServerOnChain(chain, { entries: withEcho(), env: { CHANNEL_MIN_DEPOSIT_USD: '0.1', ADMIN_TOKEN } })
})
let stopped = false
afterAll(async () => {
  if (!stopped) await s?.stop()
  await chain?.stop()
})

const channelFetch = (key: Hex) =>
  wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, key)))
type Pay = (input: string, init?: RequestInit) => Promise<Response>
const echo = (pay: Pay, code: string) =>
  pay(`${s.url}/api/v1/test-echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  })

test('the 402 lists exact first and batch-settlement second (same amount, payTo, asset); the v1 body stays exact', async () => {
  const res = await s.post('/api/v1/test-echo', { code: 'hi' })
  expect(res.status).toBe(402)
  const required = decodeB64Json(res.headers.get('payment-required'))
  expect(required.accepts.map((a: { scheme: string }) => a.scheme)).toEqual(['exact', 'batch-settlement'])
  const [exact, channel] = required.accepts
  for (const k of ['network', 'amount', 'asset', 'payTo', 'maxTimeoutSeconds']) expect(channel[k]).toBe(exact[k])
  expect(exact).toMatchObject({ amount: String(PRICE), payTo: chain.payee.address })
  // no CHANNEL_RECEIVER_AUTHORIZER_KEY: derived from the first settler key
  const derived = privateKeyToAccount(keccak256(concat([chain.settler.privateKey as Hex, toHex(AUTHORIZER_LABEL)])))
  expect(channel.extra).toEqual({
    receiverAuthorizer: derived.address,
    withdrawDelay: 86_400,
    name: exact.extra.name,
    version: exact.extra.version,
    minDeposit: String(MIN_DEPOSIT),
  })
  const body = await res.json()
  expect(body.accepts.map((a: { scheme: string }) => a.scheme)).toEqual(['exact'])
  // published: /services and llms.txt
  const services = await (await s.fetch('/services')).json()
  expect(services.schemes).toEqual(['exact', 'batch-settlement'])
  expect(services.batch_settlement).toEqual({
    min_deposit: String(MIN_DEPOSIT),
    withdraw_delay_s: 86_400,
    receiver_authorizer: derived.address,
  })
  const llms = await (await s.fetch('/llms.txt')).text()
  expect(llms).toContain(`offers \`batch-settlement\``)
  expect(llms).toContain(`at least ${MIN_DEPOSIT} atomic units`)
})

test('the exact client still pays exact (the first entry)', async () => {
  const res = await echo(payingFetch(chain.payer.privateKey as Hex), 'exact')
  expect(res.status).toBe(200)
  expect(decodePaymentResponseHeader(res.headers.get('payment-response')!).transaction).toMatch(/^0x[0-9a-f]{64}$/)
})

test('the channel client deposits once, then pays with vouchers; a failed call charges nothing; claims and sweep at shutdown', async () => {
  const payer = await channelPayer(chain, 1_000_000n)
  const pay = channelFetch(payer.key)
  const responses = []
  for (const code of ['one', 'two', 'three', 'four']) {
    const res = await echo(pay, code)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ echo: code.toUpperCase(), tier: 'flat' })
    responses.push(decodePaymentResponseHeader(res.headers.get('payment-response')!))
  }
  // the deposit's transaction, then vouchers with none
  expect(responses[0]).toMatchObject({
    success: true,
    amount: String(MIN_DEPOSIT),
    payer: payer.account.address.toLowerCase(),
  })
  expect(responses[0].transaction).toMatch(/^0x[0-9a-f]{64}$/)
  for (const r of responses.slice(1)) expect(r).toMatchObject({ success: true, transaction: '', amount: '' })
  responses.forEach((r, i) =>
    expect(r.extra).toMatchObject({
      chargedAmount: String(PRICE),
      channelState: { chargedCumulativeAmount: String(PRICE * BigInt(i + 1)) },
    }),
  )
  // every channel-paid 200 carries the signed receipt, with the channel state in place of a transfer
  for (const [i, r] of responses.entries()) {
    const receipt = await channelReceipt(s.url, r)
    expect(receipt).toMatchObject({
      scheme: 'batch-settlement',
      service: 'test-echo',
      resourceUrl: expect.stringMatching(/\/api\/v1\/test-echo$/),
      payer: payer.account.address.toLowerCase(),
      amount: String(PRICE),
      transaction: r.transaction,
      channel: {
        id: (r.extra as { channelState: { channelId: string } }).channelState.channelId,
        cumulative: String(PRICE * BigInt(i + 1)),
      },
    })
  }
  const store = s.booted.storage.channels
  expect((await store.totals()).earned).toBe(4n * PRICE)

  // 422 after admission: nothing charged, no PAYMENT-RESPONSE; the next voucher is served
  const failed = await echo(pay, 'fail')
  expect(failed.status).toBe(422)
  expect(failed.headers.get('payment-response')).toBeNull()
  expect((await store.totals()).earned).toBe(4n * PRICE)
  expect((await echo(pay, 'five')).status).toBe(200)

  // another request holds the channel (another instance, a slow call): this one is the spec's busy 402, uncharged
  const channelId = (responses[0].extra as { channelState: { channelId: string } }).channelState.channelId
  expect(await store.lease(channelId, 'elsewhere', Date.now() + 60_000, Date.now())).toBe(true)
  const busy = await echo(pay, 'busy')
  expect(busy.status).toBe(402)
  expect(decodeB64Json(busy.headers.get('payment-required')).error).toBe('invalid_batch_settlement_evm_channel_busy')
  await store.release(channelId, 'elsewhere')
  expect((await store.totals()).earned).toBe(5n * PRICE)

  // the same payer with a fresh client (state lost): the corrective 402 resynchronizes it, the retry is served
  const freshScheme = clientFor(chain.rpcUrl, payer.key)
  const fresh = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, freshScheme))
  const again = await echo(fresh, 'six')
  expect(again.status).toBe(200)
  expect(decodePaymentResponseHeader(again.headers.get('payment-response')!).extra).toMatchObject({
    channelState: { chargedCumulativeAmount: String(6n * PRICE) },
  })
  const charged = 6n * PRICE
  expect((await store.totals()).earned).toBe(charged)
  expect(s.logs.filter((l) => l.includes(payer.key.slice(2)))).toEqual([])

  // the cooperative refund: the official client's refund() probes the paid route with GET (a 402), then sends its
  // refund payload with GET; the charged part is claimed in the same transaction, the rest returns to the payer
  const probe = await s.fetch('/api/v1/test-echo')
  expect(probe.status).toBe(402)
  const payerBefore = await usdcBalance(chain.rpcUrl, payer.account.address)
  const refunded = await freshScheme.refund(`${s.url}/api/v1/test-echo`)
  expect(refunded).toMatchObject({ success: true, amount: String(MIN_DEPOSIT - charged) })
  expect((await usdcBalance(chain.rpcUrl, payer.account.address)) - payerBefore).toBe(MIN_DEPOSIT - charged)
  expect(await store.totals()).toMatchObject({ earned: charged, claimed: charged, swept: 0n })

  const figures = async () => ((await (await fetch(`${s.url}/stats`)).json()) as { channels: unknown }).channels
  expect(await figures()).toMatchObject({
    network: NETWORK,
    channels: 1,
    paid_calls: 6,
    earned_atomic: String(charged),
    claimed_atomic: String(charged),
    swept_atomic: '0',
    deposited_atomic: String(MIN_DEPOSIT),
    txs: { deposit: 1, claim: 1, refund: 1 },
  })

  // the console's channel list
  const consoleList = await (
    await s.fetch('/admin/api/channels', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  ).json()
  expect(consoleList).toMatchObject({ offered: true, count: 1, figures: { earned_atomic: String(charged) } })
  expect(consoleList.channels[0]).toMatchObject({
    id: channelId,
    payer: payer.account.address.toLowerCase(),
    charged: String(charged),
    claimed: String(charged),
    unclaimed: '0',
    withdraw_requested_at: null,
  })
  expect((await s.fetch('/admin/api/channels')).status).toBe(401)

  // shutdown: every charge claimed and swept to PAY_TO
  await s.booted.channels!.stop()
  const totals = await store.totals()
  expect(totals).toMatchObject({ earned: charged, claimed: charged, swept: charged })
  expect(await figures()).toMatchObject({
    earned_atomic: String(charged),
    claimed_atomic: String(charged),
    swept_atomic: String(charged),
    txs: { deposit: 1, claim: 1, refund: 1, sweep: 1 },
  })
  stopped = true
  const tally = await stopAndTallySchemes(chain, [s], payeeBefore)
  expect(tally.exact).toBe(PRICE) // the one exact call
  expect(tally.channels).toBe(charged) // every voucher charge, by the UTC day it was charged
  expect(tally.stats).toBe(PRICE + charged)
  expect(tally.ledger).toBe(tally.stats)
  expect(tally.delta).toBe(tally.stats) // everything claimed and swept at shutdown
  expect(tally.delta).toBe(tally.exact + totals.swept)
})

test('CHANNEL_RECEIVER_AUTHORIZER_KEY, when set, is the receiver authorizer (not the derived one); a bad one refuses boot', () => {
  const key = generatePrivateKey()
  const { config, problems } = loadConfig({
    PAY_TO: chain.payee.address,
    CHANNEL_RECEIVER_AUTHORIZER_KEY: key.slice(2),
  })
  expect(problems).toEqual([])
  expect(config.channels.receiverAuthorizerKey).toBe(key)
  const settler = new Settler(createRpc(chain.rpcUrl), {
    chainId: 8453,
    keys: [chain.settler.privateKey as Hex],
    blockTimeMs: 1000,
    pollMs: 50,
    stuckBlocks: 3,
  })
  const ch = localChannelBackend(settler, NETWORK, config.channels.receiverAuthorizerKey)
  expect(ch.receiverAuthorizer).toBe(privateKeyToAccount(key).address)
  expect(loadConfig({ CHANNEL_RECEIVER_AUTHORIZER_KEY: '0x1234' }).problems).toContain(
    'CHANNEL_RECEIVER_AUTHORIZER_KEY must be a 32-byte hex key',
  )
})
