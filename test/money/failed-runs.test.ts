/**
 * A failing handler never turns one authorization into unbounded work (issue #24 item 3), on a real chain (anvil,
 * Circle's USDC) with a loopback model that fails, on both storage engines: the same $2.50 `security-audit?tier=pro`
 * authorization replayed after failed runs runs at most MAX_FAILED_RUNS times (each run: the model's invalid answer
 * and its one retry), then is refused with `authorization_failed_runs_exhausted`; each failed run counts against the
 * client and the payer in the refusal throttle (INVALID_PAYMENT_LIMIT); a caller that disconnects while the model
 * works is such a failed run too. Nothing is charged for a failed run; a new
 * authorization still pays once the model works. Books exact: /stats revenue = ledger = the payee's on-chain delta.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { MAX_FAILED_RUNS } from '../../runtime/pay/schemes/exact/gate'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import { signPayment } from '../support/pay'
import { testPostgres, type LocalPostgres } from '../support/postgres'
import { post, requirementsAt, type TestServer } from '../support/server'
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
async function start(engine: Engine, env: Record<string, string>) {
  const all: Record<string, string> = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', ...env }
  if (engine === 'postgres') all.DATABASE_URL = await pg.createDatabase(`failed${++dbs}`)
  const s = await startServerOnChain(chain, { env: all })
  servers.push(s)
  expect(s.booted.storage.kind).toBe(engine)
  return s
}

/** One signed payment for `path`, and a sender of it with the same body (optionally from another client address). */
async function onePayment(s: TestServer, key: Hex, path = PRO_AUDIT) {
  const header = await signPayment({ key, requirements: await requirementsAt(s.url + path) })
  return (from?: string) =>
    post(s.url + path, BODY, { 'payment-signature': header, ...(from ? { 'x-forwarded-for': from } : {}) })
}

/** The model answers something that is not the audit's JSON (the client asks once more, then gives up: 502). */
const failingModel = (runs: number) => {
  fake.reset()
  for (let i = 0; i < runs * 2; i++) fake.reply({ text: 'not json at all' })
}

describe.each(['sqlite', 'postgres'] as const)('%s', (engine) => {
  test('one $2.50 pro authorization replayed after failed runs: at most 3 runs (6 model calls), then refused; nothing charged', async () => {
    const s = await start(engine, { INVALID_PAYMENT_LIMIT: '0' })
    const payer = await fundedPayer(chain, PRO_PRICE)
    const send = await onePayment(s, payer.key)
    failingModel(5)
    const answers: Array<{ status: number; reason?: string; code?: string }> = []
    for (let i = 0; i < 5; i++) {
      const r = await send()
      const body = (await r.json()) as { reason?: string; error?: { code: string } }
      answers.push({ status: r.status, reason: body.reason, code: body.error?.code })
    }
    expect(MAX_FAILED_RUNS).toBe(3)
    expect(answers.map((a) => a.status)).toEqual([502, 502, 502, 402, 402])
    expect(answers.slice(3).map((a) => a.reason)).toEqual([
      'authorization_failed_runs_exhausted',
      'authorization_failed_runs_exhausted',
    ])
    // each failed run asked the model twice (its invalid answer, one retry), 32,000 max_tokens each
    expect(fake.requests.length).toBe(2 * MAX_FAILED_RUNS)
    expect(fake.requests.every((r) => r.max_tokens === 32_000)).toBe(true)
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(PRO_PRICE)
    expect(await s.booted.storage.ledger.settledTotal()).toBe(0n)
    const released = (await s.booted.storage.ledger.byState(['released'])).filter(
      (r) => r.payer === payer.address.toLowerCase(),
    )
    expect(released.map((r) => r.reason).sort()).toEqual([
      'authorization_failed_runs_exhausted',
      'authorization_failed_runs_exhausted',
      'handler 502 UPSTREAM_ERROR',
      'handler 502 UPSTREAM_ERROR',
      'handler 502 UPSTREAM_ERROR',
    ])
    expect(await s.booted.storage.ledger.failedRuns(released[0].network, payer.address, released[0].nonce)).toBe(
      MAX_FAILED_RUNS,
    )
  }, 90_000)

  test('disconnecting once the model works, then replaying the same authorization: at most 3 runs, then refused', async () => {
    const s = await start(engine, { INVALID_PAYMENT_LIMIT: '0' })
    const payer = await fundedPayer(chain, PRO_PRICE)
    const header = await signPayment({ key: payer.key, requirements: await requirementsAt(s.url + PRO_AUDIT) })
    fake.reset()
    const ledger = s.booted.storage.ledger
    const releasedOfPayer = async () =>
      (await ledger.byState(['released'])).filter((r) => r.payer === payer.address.toLowerCase())
    for (let run = 1; run <= MAX_FAILED_RUNS; run++) {
      fake.reply({ hang: true }) // the model works until the caller is gone
      const gone = new AbortController()
      const call = fetch(s.url + PRO_AUDIT, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'payment-signature': header },
        body: JSON.stringify(BODY),
        signal: gone.signal,
      }).catch(() => null)
      await until(() => fake.requests.length === run, 30_000, `model call ${run}`)
      gone.abort()
      await call
      await until(async () => (await releasedOfPayer()).length === run, 30_000, `run ${run} released`)
    }
    expect((await releasedOfPayer()).map((r) => r.reason)).toEqual(
      Array(MAX_FAILED_RUNS).fill('handler 499 CLIENT_CLOSED_REQUEST'),
    )
    const refused = await post(s.url + PRO_AUDIT, BODY, { 'payment-signature': header })
    expect(refused.status).toBe(402)
    expect(((await refused.json()) as { reason: string }).reason).toBe('authorization_failed_runs_exhausted')
    expect(fake.requests.length).toBe(MAX_FAILED_RUNS)
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(PRO_PRICE)
    expect(await ledger.settledTotal()).toBe(0n)
  }, 90_000)

  test('each failed run counts against the client and the payer (INVALID_PAYMENT_LIMIT); a new authorization pays once the model works', async () => {
    const s = await start(engine, { INVALID_PAYMENT_LIMIT: '2', TRUSTED_PROXIES: '1' })
    const payer = await fundedPayer(chain, PRO_PRICE)
    const send = await onePayment(s, payer.key)
    failingModel(3)
    expect((await send('10.9.0.1')).status).toBe(502)
    expect((await send('10.9.0.1')).status).toBe(502)
    // the client is throttled: 429 before any verification or model call
    const throttled = await send('10.9.0.1')
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
    // the payer too, from another client
    expect((await send('10.9.0.2')).status).toBe(429)
    expect(fake.requests.length).toBe(4)
    // another payer from another client, with a working model, is served and pays
    const other = await fundedPayer(chain, PRO_PRICE)
    fake.reset()
    fake.reply({ status: 500 })
    const quick = await onePayment(s, other.key, '/api/v1/explain-code?tier=quick')
    expect((await quick('10.9.0.3')).status).toBe(502)
    // the same authorization may run again after a failure (up to MAX_FAILED_RUNS): it pays once it succeeds
    fake.reply({ text: 'It queries users by id, unsafely.' })
    const ok = await quick('10.9.0.3')
    expect(ok.status).toBe(200)
    moved += 10_000n
    expect(await s.booted.storage.ledger.settledTotal()).toBe(10_000n)
  }, 90_000)
})
