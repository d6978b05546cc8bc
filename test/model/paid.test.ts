/**
 * Model-backed services through the real paid route: the official client pays, the model answers from the loopback
 * OpenAI-compatible server, the five-field response carries the provider's token count, and a model failure is
 * never settled. The free demo uses the same path within its quota.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { decodeB64Json, post, type TestServer } from '../support/server'
import { startServerOnChain } from '../support/on-chain'
import { startFakeOpenAI, texts, type FakeOpenAI } from '../support/fake-openai'
import { payingFetch } from '../support/paying-fetch'

let chain: DevChain
let fake: FakeOpenAI
let s: TestServer
beforeAll(async () => {
  chain = await startDevChain()
  fake = startFakeOpenAI()
  s = await startServerOnChain(chain, {
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' },
  })
})
afterAll(async () => {
  await s?.stop()
  fake?.close()
  await chain?.stop()
})
beforeEach(() => fake.reset())

const pay = () => payingFetch(chain.payer.privateKey as Hex)
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

test('explain-code at the quick tier: paid, five fields, provider tokens, tier budget, user code stays data', async () => {
  fake.reply({ text: 'It adds two numbers.', tokens: 321, model: 'gpt-4.1-mini-2025' })
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const r = await pay()(s.url + '/api/v1/explain-code?tier=quick', json({ code: 'const add = (a, b) => a + b' }))
  expect(r.status).toBe(200)
  const body = (await r.json()) as any
  expect(body).toEqual({
    service: 'explain-code',
    tier: 'quick',
    result: 'It adds two numbers.',
    model: 'gpt-4.1-mini-2025',
    tokens_used: 321,
    request_id: expect.stringMatching(/^req_/),
  })
  expect(decodeB64Json(r.headers.get('payment-response')).success).toBe(true)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(10_000n)
  const sent = fake.requests[0]
  expect(sent.max_tokens).toBe(1000)
  const { system, user } = texts(sent)
  expect(user).toContain('const add = (a, b) => a + b')
  expect(system).not.toContain('const add')
  const stats = (await (await fetch(s.url + '/stats/today')).json()) as any
  expect(stats.services.find((x: any) => x.slug === 'explain-code').tokens).toBeGreaterThanOrEqual(321)
})

test('a model failure is a 502 and nothing is settled', async () => {
  fake.reply(
    { status: 500, body: { error: { message: 'boom' } } },
    { status: 500, body: { error: { message: 'boom' } } },
  )
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const r = await pay()(s.url + '/api/v1/sentiment-analyze', json({ text: 'I love it' }))
  expect(r.status).toBe(502)
  expect(((await r.json()) as any).error).toMatchObject({ upstream: 'model' })
  expect(r.headers.get('payment-response')).toBeNull()
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
})

test('the free demo explains code with the remaining quota, without payment', async () => {
  fake.reply({ text: 'A demo explanation.', tokens: 42 })
  const r = await post(s.url + '/api/demo/explain', { code: 'print(1)' })
  expect(r.status).toBe(200)
  const body = (await r.json()) as any
  expect(body).toMatchObject({
    service: 'explain-code',
    tier: 'quick',
    result: 'A demo explanation.',
    tokens_used: 42,
    demo: { limit: 5, remaining: 4 },
  })
  expect(fake.requests[0].max_tokens).toBe(1000)
})

test("a structured answer the handler's own check rejects (run in its worker) is asked again once, then served", async () => {
  fake.reply(
    { json: { label: 'positive', score: -0.5, magnitude: 0.4, reason: 'contradicts itself' }, tokens: 10 },
    { json: { label: 'positive', score: 0.8, magnitude: 0.6, reason: 'The author loves it.' }, tokens: 20 },
  )
  const r = await pay()(s.url + '/api/v1/sentiment-analyze', json({ text: 'I love it' }))
  expect(r.status).toBe(200)
  expect(await r.json()).toMatchObject({ label: 'positive', score: 0.8, tokens_used: 30 })
  expect(fake.requests).toHaveLength(2)
  // the retry tells the model what the handler's check found
  expect(JSON.stringify(fake.requests[1].messages)).toContain('label positive contradicts score -0.5')
})
