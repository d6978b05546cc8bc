/**
 * Usage charged as priced (issue #32 item 3): a model provider that reports no token usage (many OpenAI-compatible
 * servers omit it, in streams especially) never makes a channel-paid tiered answer cost the 10 % floor. The tokens
 * are counted here (prompt sent + answer, runtime/model/usage.ts), JSON and stream alike; the charge is their share
 * of the price, claimed and swept to the payee on the dev chain with the official `batch-settlement` client.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { chargeFor } from '../../runtime/pay/schemes/batch-settlement/scheme'
import { countedTokens } from '../../runtime/model/usage'
import { channelPayer, clientFor, NETWORK } from '../support/channels'
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

/** The tokens of the last model call as counted here: every message sent plus the answer. */
const countedOfLast = (answer: string) => countedTokens(fake.requests.at(-1)!.messages as never, answer)

test('no usage from the provider: the tokens are counted, JSON and stream; never the floor; the books hold on chain', async () => {
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const url = `${s.url}/api/v1/explain-code?tier=quick`
  const price = BigInt(
    decodeB64Json((await s.post(url, { code: 'x' })).headers.get('payment-required')).accepts[1].amount,
  )
  expect(price).toBe(10_000n) // quick: $0.01 for at most 1,000 tokens; the floor is 1,000
  const payer = await channelPayer(chain, 2_000_000n)
  const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, payer.key)))
  const call = (code: string, stream: boolean) =>
    pay(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}) },
      body: JSON.stringify({ code }),
    })
  const answer = 'The function adds its two arguments and returns the sum. '.repeat(30).trim()

  // JSON: the provider's completion carries no `usage`
  fake.reply({ text: answer, usage: false })
  const json = await call('const add = (a, b) => a + b', false)
  expect(json.status).toBe(200)
  const body = await json.json()
  const jsonTokens = countedOfLast(answer)
  expect(jsonTokens).toBeGreaterThan(300) // ~330 tokens of answer, plus the prompt
  expect(body.tokens_used).toBe(jsonTokens)
  const jsonCharge = chargeFor(price, 1000, JSON.stringify({ tokens_used: jsonTokens }))
  expect(jsonCharge).toBeGreaterThan(3_000n) // not the floor (1,000)
  expect(body.charged.atomic).toBe(jsonCharge.toString())
  expect(decodeB64Json(json.headers.get('payment-response')).extra.chargedAmount).toBe(jsonCharge.toString())

  // stream: the provider sends no usage chunk
  const pieces = answer.match(/.{1,40}/g)!
  fake.reply({ stream: pieces, usage: false })
  const streamed = await call('const sub = (a, b) => a - b', true)
  expect(streamed.status).toBe(200)
  const last = (await sseReader(streamed).rest()).at(-1)!
  expect(last.event).toBe('result')
  const streamTokens = countedOfLast(answer)
  expect(last.data.tokens_used).toBe(streamTokens)
  const streamCharge = chargeFor(price, 1000, JSON.stringify({ tokens_used: streamTokens }))
  expect(streamCharge).toBeGreaterThan(3_000n)
  expect(last.data.payment).toMatchObject({ success: true, extra: { chargedAmount: streamCharge.toString() } })

  // a provider that reports usage is still believed
  fake.reply({ text: 'Adds.', tokens: 222 })
  const reported = await (await call('x = 1', false)).json()
  expect(reported.charged.atomic).toBe('2220')

  const earned = jsonCharge + streamCharge + 2220n
  const store = s.booted.storage.channels
  expect((await store.totals()).earned).toBe(earned)
  // the books: no exact payment here; channel charges claimed and swept to the payee at shutdown
  expect(await s.booted.storage.ledger.settledTotal()).toBe(0n)
  await s.booted.channels!.stop()
  expect(await store.totals()).toMatchObject({ earned, claimed: earned, swept: earned })
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore).toBe(earned)
  const stats = BigInt(((await (await fetch(`${s.url}/stats`)).json()) as any).totals.revenue_atomic)
  expect(stats).toBe(earned) // /stats counts every scheme: exact settled (none) + channel charges
})
