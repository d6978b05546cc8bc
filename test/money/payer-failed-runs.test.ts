/**
 * Failing runs bounded per payer, counted through the one finish (issue #32 items 4 and 5), on a real chain with a
 * loopback model that fails, on both storage engines: a payer that signs a fresh authorization for every try gets at
 * most PAYER_FAILED_RUNS failing paid runs per window, whether they fail as JSON, as a stream, or by leaving mid-answer;
 * then every payment it signs is answered 429 TOO_MANY_FAILED_RUNS with Retry-After before any handler (no model
 * call). A channel payer (x402 `batch-settlement`, official client) is counted the same way. Another payer is served.
 * Nothing is charged for a failed run. Books: /stats revenue = ledger = the payee's on-chain delta.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { PAYER_FAILED_RUNS, PAYER_FAILED_RUNS_WINDOW_MS } from '../../runtime/db/throttle'
import { channelPayer, clientFor, NETWORK } from '../support/channels'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import { signPayment } from '../support/pay'
import { testPostgres, type LocalPostgres } from '../support/postgres'
import { post, requirementsAt, type TestServer } from '../support/server'
import { sseReader } from '../support/sse'
import { until } from '../support/until'

let chain: DevChain
let pg: LocalPostgres
let fake: FakeOpenAI
const servers: TestServer[] = []
let payeeBefore = 0n
let moved = 0n
let dbs = 0

const PRO_AUDIT = '/api/v1/security-audit?tier=pro'
const PRO_PRICE = 2_500_000n
const BODY = { code: 'app.get("/u", (q, r) => db.query(`SELECT * FROM u WHERE id = ${q.query.id}`))' }

beforeAll(async () => {
  ;[chain, pg] = await Promise.all([startDevChain(), testPostgres()])
  fake = startFakeOpenAI()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
}, 120_000)

afterAll(async () => {
  const { delta, stats, ledger } = await stopAndTally(chain, servers, payeeBefore)
  fake?.close()
  await Promise.all([chain?.stop(), pg?.stop()])
  expect(delta).toBe(moved)
  expect(stats).toBe(delta)
  expect(ledger).toBe(delta)
}, 60_000)

type Engine = 'sqlite' | 'postgres'
async function start(engine: Engine) {
  const env: Record<string, string> = {
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'test-key',
    INVALID_PAYMENT_LIMIT: '0', // the refusal throttle off: the per-payer cool-down alone is measured
    CHANNEL_MIN_DEPOSIT_USD: '0.1',
  }
  if (engine === 'postgres') env.DATABASE_URL = await pg.createDatabase(`payerruns${++dbs}`)
  const s = await startServerOnChain(chain, { env })
  servers.push(s)
  expect(s.booted.storage.kind).toBe(engine)
  return s
}

/** A fresh authorization (free to sign) for one call of `path`. */
const fresh = async (s: TestServer, key: Hex, path = PRO_AUDIT) =>
  signPayment({ key, requirements: await requirementsAt(s.url + path) })

const streamed = async (s: TestServer, header: string, path = PRO_AUDIT) =>
  fetch(s.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'payment-signature': header },
    body: JSON.stringify(BODY),
  })

describe.each(['sqlite', 'postgres'] as const)('%s', (engine) => {
  test('a payer signing a fresh authorization per try: 5 failing runs (JSON, stream, left mid-answer), then 429 before any model call', async () => {
    const s = await start(engine)
    const payer = await fundedPayer(chain, PRO_PRICE)
    expect(PAYER_FAILED_RUNS).toBe(5)
    expect(PAYER_FAILED_RUNS_WINDOW_MS).toBe(600_000)
    fake.reset()
    // runs 1-2: JSON, the model answers something that is not the audit's JSON twice (502)
    for (let i = 0; i < 2; i++) {
      fake.reply({ text: 'not json' }, { text: 'not json' })
      expect((await post(s.url + PRO_AUDIT, BODY, { 'payment-signature': await fresh(s, payer.key) })).status).toBe(502)
    }
    // runs 3-4: streamed; the text was sent, the answer failed: the last event is the error
    for (let i = 0; i < 2; i++) {
      fake.reply({ stream: ['not ', 'json'] }, { stream: ['still ', 'not'] })
      const r = await streamed(s, await fresh(s, payer.key))
      expect(r.status).toBe(200)
      const last = (await sseReader(r).rest()).at(-1)!
      expect(last).toMatchObject({ event: 'error', data: { error: { code: 'UPSTREAM_ERROR' } } })
    }
    // run 5: streamed, and the client leaves mid-answer (the model call is cancelled)
    fake.reply({ stream: ['{"find', 'ings":', ' ['], hold: 2 })
    const gone = new AbortController()
    const header5 = await fresh(s, payer.key)
    const r5 = await fetch(s.url + PRO_AUDIT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'payment-signature': header5 },
      body: JSON.stringify(BODY),
      signal: gone.signal,
    })
    await fake.held()
    gone.abort()
    await r5.body?.cancel().catch(() => {})
    const ledger = s.booted.storage.ledger
    const releasedOfPayer = async () =>
      (await ledger.byState(['released'])).filter((r) => r.payer === payer.address.toLowerCase())
    await until(async () => (await releasedOfPayer()).length === 5, 30_000, 'the fifth run released')
    expect((await releasedOfPayer()).map((r) => r.reason).sort()).toEqual([
      'handler 499 CLIENT_CLOSED_REQUEST',
      'handler 502 UPSTREAM_ERROR',
      'handler 502 UPSTREAM_ERROR',
      'handler 502 UPSTREAM_ERROR',
      'handler 502 UPSTREAM_ERROR',
    ])
    const modelCalls = fake.requests.length
    expect(modelCalls).toBe(9) // 2 + 2 + 2 + 2 + 1

    // the sixth try, JSON or stream, with a new authorization: 429 before the handler (no model call)
    fake.reply({ text: 'would be the answer' })
    const json6 = await post(s.url + PRO_AUDIT, BODY, { 'payment-signature': await fresh(s, payer.key) })
    expect(json6.status).toBe(429)
    expect(((await json6.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_FAILED_RUNS')
    const retry = Number(json6.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(600)
    const stream6 = await streamed(s, await fresh(s, payer.key))
    expect(stream6.status).toBe(429)
    expect(stream6.headers.get('content-type')).toContain('application/json')
    expect(((await stream6.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_FAILED_RUNS')
    // over MCP (the same pipeline, the same count): the tool call is refused the same way
    const mcp = await fetch(s.url + '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'security-audit',
          arguments: { ...BODY, tier: 'pro' },
          _meta: { 'x402/payment': JSON.parse(Buffer.from(await fresh(s, payer.key), 'base64').toString()) },
        },
      }),
    })
    const tool = (await mcp.json()) as { result: { isError: boolean; structuredContent: { error: { code: string } } } }
    expect(tool.result.isError).toBe(true)
    expect(tool.result.structuredContent.error.code).toBe('TOO_MANY_FAILED_RUNS')
    expect(fake.requests.length).toBe(modelCalls)
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(PRO_PRICE)
    expect(await ledger.settledTotal()).toBe(0n)

    // another payer is served and pays
    const other = await fundedPayer(chain, 10_000n)
    fake.reset()
    fake.reply({ text: 'It queries users by id, unsafely.' })
    const ok = await post(s.url + '/api/v1/explain-code?tier=quick', BODY, {
      'payment-signature': await fresh(s, other.key, '/api/v1/explain-code?tier=quick'),
    })
    expect(ok.status).toBe(200)
    moved += 10_000n
    expect(await ledger.settledTotal()).toBe(10_000n)
  }, 120_000)

  test('a channel payer (official batch-settlement client) is counted the same way: 5 failing runs, then 429; nothing charged', async () => {
    const s = await start(engine)
    const url = `${s.url}/api/v1/explain-code?tier=quick`
    const payer = await channelPayer(chain, 1_000_000n)
    const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, payer.key)))
    const call = (stream: boolean) =>
      pay(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}) },
        body: JSON.stringify({ code: 'x = 1' }),
      })
    fake.reset()
    for (let i = 0; i < 5; i++) {
      fake.reply({ status: 500 })
      const r = await call(i % 2 === 1)
      expect(r.status).toBe(502) // before any chunk: a plain HTTP error, JSON or stream
      await r.body?.cancel()
    }
    expect(fake.requests.length).toBe(5)
    fake.reply({ text: 'would be the answer' })
    const refused = await call(true)
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_FAILED_RUNS')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(fake.requests.length).toBe(5)
    expect((await s.booted.storage.channels.totals()).earned).toBe(0n)
  }, 120_000)
})
