/**
 * Streamed model answers paid by x402 `batch-settlement` (the same streamed door, `finishStreamed`, as `exact`):
 * the official client (`@x402/fetch` + `@x402/evm/batch-settlement/client`) deposits, the result event carries the
 * spec's settle response (`payment`), charging for the tokens used (a share of the tier's price, with a floor); a stream that breaks off charges nothing; the next call is served; at shutdown
 * the claim engine claims and sweeps: payee's delta = swept = the charges.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { chargeFor } from '../../runtime/pay/schemes/batch-settlement/scheme'
import { channelPayer, channelReceipt, clientFor, NETWORK } from '../support/channels'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { startServerOnChain } from '../support/on-chain'
import { decodeB64Json, type TestServer } from '../support/server'
import { sseReader } from '../support/sse'

let chain: DevChain
let fake: FakeOpenAI
let s: TestServer

beforeAll(async () => {
  chain = await startDevChain()
  fake = startFakeOpenAI()
  s = await startServerOnChain(chain, {
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', CHANNEL_MIN_DEPOSIT_USD: '0.1' },
  })
})
afterAll(async () => {
  await s?.stop()
  fake?.close()
  await chain?.stop()
})

test('a channel pays streamed answers by tokens used; a broken stream charges nothing; claimed and swept at shutdown', async () => {
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const url = `${s.url}/api/v1/explain-code?tier=quick`
  const offered = decodeB64Json((await s.post(url, { code: 'x' })).headers.get('payment-required')).accepts
  expect(offered[1].scheme).toBe('batch-settlement')
  const price = BigInt(offered[1].amount)
  const payer = await channelPayer(chain, 2_000_000n)
  const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, payer.key)))
  const streamed = (code: string) =>
    pay(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ code }),
    })
  const store = s.booted.storage.channels

  // pay for tokens used: quick is $0.01 (10,000 atomic units) for at most 1,000 tokens
  expect(price).toBe(10_000n)
  fake.reply({ stream: ['It ', 'adds.'], tokens: 222 })
  const first = await streamed('const add = (a, b) => a + b')
  expect(first.status).toBe(200)
  const events = await sseReader(first).rest()
  const last = events.at(-1)!
  expect(last.event).toBe('result')
  expect(last.data.tokens_used).toBe(222)
  expect(last.data.charged).toEqual({ atomic: '2220', usd: '0.002220' }) // the answer says what it cost
  expect(last.data.payment).toMatchObject({ success: true, extra: { chargedAmount: '2220' } }) // 222/1000 of 10,000
  expect(last.data.payment.transaction).toMatch(/^0x[0-9a-f]{64}$/) // the deposit
  // the final event's settle response carries the signed receipt: what was charged, and the channel's state
  expect(await channelReceipt(s.url, last.data.payment)).toMatchObject({
    scheme: 'batch-settlement',
    service: 'explain-code',
    tier: 'quick',
    amount: '2220',
    transaction: last.data.payment.transaction,
    channel: { id: last.data.payment.extra.channelState.channelId, cumulative: '2220' },
  })
  expect((await store.totals()).earned).toBe(2220n)

  fake.reply({ stream: ['Half ', 'an ', 'answer'], hold: 2, breakAfter: 2 })
  const broken = await streamed('x = 1')
  expect(broken.status).toBe(200)
  const reader = sseReader(broken)
  expect((await reader.next())?.data).toEqual({ text: 'Half' })
  await fake.held()
  fake.release()
  const brokenEvents = await reader.rest()
  expect(brokenEvents.at(-1)).toMatchObject({ event: 'error', data: { error: { code: 'UPSTREAM_ERROR' } } })
  expect((await store.totals()).earned).toBe(2220n)

  fake.reply({ stream: ['Fine.'], tokens: 5 })
  const again = await streamed('y = 2')
  expect(again.status).toBe(200)
  expect((await sseReader(again).rest()).at(-1)?.data.payment).toMatchObject({
    success: true,
    transaction: '',
    // 5 tokens would be 50: the floor is a tenth of the price
    extra: { chargedAmount: '1000', channelState: { chargedCumulativeAmount: '3220' } },
  })

  // a JSON answer (no text/event-stream) paid by voucher has the charged amount in its body too
  fake.reply({ text: 'Adds two numbers.', tokens: 500 })
  const json = await pay(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: 'z = 3' }),
  })
  expect(json.status).toBe(200)
  const body = await json.json()
  expect(body).toMatchObject({ tokens_used: 500, charged: { atomic: '5000', usd: '0.005000' } })
  expect(decodeB64Json(json.headers.get('payment-response')).extra.chargedAmount).toBe(body.charged.atomic)

  await s.booted.channels!.stop()
  expect(await store.totals()).toMatchObject({ earned: 8220n, claimed: 8220n, swept: 8220n })
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore).toBe(8220n)
})

test('chargeFor: the share of the price the tokens took of max_tokens, rounded up, between a tenth of the price and the price', () => {
  expect(chargeFor(10_000n, 1000, JSON.stringify({ tokens_used: 222 }))).toBe(2220n)
  expect(chargeFor(10_000n, 3000, JSON.stringify({ tokens_used: 1001 }))).toBe(3337n) // 3336.67 rounded up
  expect(chargeFor(10_000n, 1000, JSON.stringify({ tokens_used: 5 }))).toBe(1000n) // the floor
  expect(chargeFor(10_000n, 1000, JSON.stringify({ tokens_used: 5000 }))).toBe(10_000n) // never above the price
  expect(chargeFor(10_000n, 1000, JSON.stringify({ result: 'no usage' }))).toBe(10_000n)
  expect(chargeFor(10_000n, 1000, 'not json')).toBe(10_000n)
  expect(chargeFor(4200n, 0, JSON.stringify({ tokens_used: 1 }))).toBe(4200n) // a utility: its price
})
