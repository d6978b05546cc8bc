/**
 * Delivered output is paid (issue #32 item 2), on the dev chain with the official clients (`exact` and
 * `batch-settlement`) and a loopback model: a client that reads every delta of a streamed answer and closes before
 * `event: result` is charged (the model's answer was complete), and the same payment collects the kept result
 * instead of running again (the same voucher is refused); the last chunk is held back until the model's answer is
 * complete, so a client that leaves before that has not got the whole answer and, its model call cancelled, pays
 * nothing; a stream cut by the handler's budget after it sent text ends with a truncated `result`, charged (a channel
 * for the tokens delivered). Books: the payee's on-chain delta = exact settled + channel charges swept.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { countedTokens } from '../../runtime/model/usage'
import { chargeFor } from '../../runtime/pay/schemes/batch-settlement/scheme'
import { channelPayer, clientFor, NETWORK } from '../support/channels'
import { withBudget } from '../support/entries'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { fundedPayer, startServerOnChain } from '../support/on-chain'
import { signPayment } from '../support/pay'
import { decodeB64Json, post, requirementsAt, type TestServer } from '../support/server'
import { sseReader } from '../support/sse'
import { until } from '../support/until'

let chain: DevChain
let fake: FakeOpenAI
let s: TestServer
let payeeBefore = 0n

const EXPLAIN = '/api/v1/explain-code?tier=quick'
const EXPLAIN_PRICE = 10_000n
/** security-audit with a 2 s budget here (45 s in the catalog): the budget cuts a stream the model holds open. */
const AUDIT = '/api/v1/security-audit?tier=quick'
const BUDGET_MS = 2000

beforeAll(async () => {
  chain = await startDevChain()
  fake = startFakeOpenAI()
  s = await startServerOnChain(chain, {
    entries: withBudget('security-audit', BUDGET_MS),
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', CHANNEL_MIN_DEPOSIT_USD: '0.1' },
  })
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
})
afterAll(async () => {
  await s?.stop()
  fake?.close()
  await chain?.stop()
})

const streamedInit = (body: unknown, header?: string, signal?: AbortSignal): RequestInit => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    ...(header ? { 'payment-signature': header } : {}),
  },
  body: JSON.stringify(body),
  signal,
})
const ledger = () => s.booted.storage.ledger
const earned = async () => (await s.booted.storage.channels.totals()).earned

/** Reads `n` deltas of a streamed answer, then closes the connection. */
async function readDeltasAndLeave(r: Response, n: number, gone: AbortController): Promise<string[]> {
  const events = sseReader(r)
  const texts: string[] = []
  while (texts.length < n) {
    const e = await events.next()
    if (!e) break
    if (e.event === 'delta') texts.push(e.data.text)
  }
  gone.abort()
  await r.body?.cancel().catch(() => {})
  return texts
}

let settledExact = 0n

test('exact: every delta read, then the client closes before `result`: charged; the same payment collects the kept result', async () => {
  const payer = await fundedPayer(chain, EXPLAIN_PRICE)
  const header = await signPayment({ key: payer.key, requirements: await requirementsAt(s.url + EXPLAIN) })
  // the provider pauses after its finish chunk (before usage and [DONE]): the gap a client could close in
  fake.reply({ stream: ['It ', 'adds ', 'two numbers.'], hold: 'finish', usage: false })
  const gone = new AbortController()
  const r = await fetch(s.url + EXPLAIN, streamedInit({ code: 'const add = (a, b) => a + b' }, header, gone.signal))
  expect(r.status).toBe(200)
  expect((await readDeltasAndLeave(r, 3, gone)).join('')).toBe('It adds two numbers.')
  await until(async () => (await ledger().settledTotal()) === settledExact + EXPLAIN_PRICE, 30_000, 'charged')
  settledExact += EXPLAIN_PRICE
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
  // the same payment again: the kept result, no second model call, nothing charged twice
  const calls = fake.requests.length
  const again = await post(s.url + EXPLAIN, { code: 'const add = (a, b) => a + b' }, { 'payment-signature': header })
  expect(again.status).toBe(200)
  expect(((await again.json()) as { result: string }).result).toContain('It adds two numbers.')
  expect(fake.requests.length).toBe(calls)
  expect(await ledger().settledTotal()).toBe(settledExact)
})

test('exact: the last chunk is held back until the model finishes; a client that leaves before that pays nothing', async () => {
  const payer = await fundedPayer(chain, EXPLAIN_PRICE)
  const header = await signPayment({ key: payer.key, requirements: await requirementsAt(s.url + EXPLAIN) })
  // the provider pauses after its last content chunk, before the finish chunk
  fake.reply({ stream: ['One ', 'two ', 'three'], hold: 3 })
  const gone = new AbortController()
  const r = await fetch(s.url + EXPLAIN, streamedInit({ code: 'y = 2' }, header, gone.signal))
  await fake.held()
  // two deltas reached the client; the third waits for the model's finish
  expect(await readDeltasAndLeave(r, 2, gone)).toEqual(['One', ' two'])
  await until(
    async () => {
      const rows = await ledger().byState(['released'])
      return rows.some((x) => x.payer === payer.address.toLowerCase())
    },
    30_000,
    'released',
  )
  await until(() => !fake.holding, 30_000, 'the model call cancelled')
  expect(await ledger().settledTotal()).toBe(settledExact)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(EXPLAIN_PRICE)
})

test('exact: a stream cut by the handler budget after it sent text ends with a truncated result, charged', async () => {
  const price = BigInt((await requirementsAt(s.url + AUDIT)).amount)
  const payer = await fundedPayer(chain, price)
  const header = await signPayment({ key: payer.key, requirements: await requirementsAt(s.url + AUDIT) })
  fake.reply({ stream: ['{"findings": [', '{"title": "SQL'], hold: 2 }) // the model never finishes
  const r = await fetch(s.url + AUDIT, streamedInit({ code: 'q(`SELECT ${id}`)' }, header))
  const all = await sseReader(r).rest()
  const deltas = all.filter((e) => e.event === 'delta').map((e) => e.data.text as string)
  expect(deltas.length).toBe(1) // the second chunk was held back
  const last = all.at(-1)!
  expect(last.event).toBe('result')
  expect(last.data).toMatchObject({ truncated: 'HANDLER_TIMEOUT', result: deltas.join('') })
  expect(last.data.payment).toMatchObject({ success: true })
  settledExact += price
  expect(await ledger().settledTotal()).toBe(settledExact)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
})

test('channel: every delta read then closed: charged for the tokens; the same voucher does not run again; a budget cut pays for the tokens delivered', async () => {
  const payer = await channelPayer(chain, 1_000_000n)
  let lastHeader = ''
  const recording: typeof fetch = Object.assign(
    async (input: RequestInfo | URL, init?: RequestInit) => {
      const h = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
      const sig =
        h.get('payment-signature') ?? (input instanceof Request ? input.headers.get('payment-signature') : null)
      if (sig) lastHeader = sig
      return fetch(input, init)
    },
    { preconnect: fetch.preconnect },
  )
  const pay = wrapFetchWithPayment(recording, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, payer.key)))
  const answer = ['The ', 'function ', 'adds ', 'two ', 'numbers.']
  fake.reply({ stream: answer, hold: 'finish', usage: false })
  const gone = new AbortController()
  const r = await pay(s.url + EXPLAIN, streamedInit({ code: 'const add = (a, b) => a + b' }, undefined, gone.signal))
  expect(r.status).toBe(200)
  const voucher = lastHeader
  expect((await readDeltasAndLeave(r, answer.length, gone)).join('')).toBe(answer.join('').trim())
  await until(async () => (await earned()) > 0n, 30_000, 'charged')
  const charged = await earned()
  // the usage chunk was cut off with the connection: the tokens are counted (prompt + answer), never the floor
  const tokens = countedTokens(fake.requests.at(-1)!.messages as never, answer.join(''))
  expect(charged).toBe(chargeFor(EXPLAIN_PRICE, 1000, JSON.stringify({ tokens_used: tokens })))
  expect(charged).toBeGreaterThan(1000n)
  // the same voucher again (raw): not a second run
  const calls = fake.requests.length
  const replay = await fetch(s.url + EXPLAIN, streamedInit({ code: 'const add = (a, b) => a + b' }, voucher))
  expect(replay.status).toBe(402)
  await replay.body?.cancel()
  expect(fake.requests.length).toBe(calls)
  expect(await earned()).toBe(charged)

  // the budget cuts a stream after it sent text: a truncated result, charged for the tokens delivered
  const auditPrice = BigInt(
    decodeB64Json((await s.post(s.url + AUDIT, { code: 'x' })).headers.get('payment-required')).accepts[1].amount,
  )
  fake.reply({ stream: ['{"findings": [', '{"title": "SQL'], hold: 2 })
  // (a second payer: its channel's deposit covers the audit's $0.35 ceiling)
  const auditPayer = await channelPayer(chain, 5_000_000n)
  const payAudit = wrapFetchWithPayment(
    fetch,
    new x402Client().register(NETWORK, clientFor(chain.rpcUrl, auditPayer.key)),
  )
  const cut = await payAudit(s.url + AUDIT, streamedInit({ code: 'q(`SELECT ${id}`)' }))
  expect(cut.status).toBe(200)
  const all = await sseReader(cut).rest()
  const text = all
    .filter((e) => e.event === 'delta')
    .map((e) => e.data.text as string)
    .join('')
  const last = all.at(-1)!
  expect(last.event).toBe('result')
  expect(last.data).toMatchObject({ truncated: 'HANDLER_TIMEOUT', result: text, tokens_used: countTokens(text) })
  const maxTokens = s.booted.services.find((x) => x.slug === 'security-audit')!.pricing.quick!.max_tokens
  const expected = chargeFor(auditPrice, maxTokens, JSON.stringify({ tokens_used: countTokens(text) }))
  expect(last.data.payment).toMatchObject({ success: true, extra: { chargedAmount: expected.toString() } })
  expect(await earned()).toBe(charged + expected)

  // the books: exact settled + channel charges (claimed and swept at shutdown) = the payee's on-chain delta
  const total = charged + expected
  await s.booted.channels!.stop()
  expect(await s.booted.storage.channels.totals()).toMatchObject({ earned: total, claimed: total, swept: total })
  const stats = BigInt(((await (await fetch(`${s.url}/stats`)).json()) as any).totals.revenue_atomic)
  expect(stats).toBe(settledExact + total) // /stats counts every scheme: exact settled + channel charges
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore).toBe(settledExact + total)
})
