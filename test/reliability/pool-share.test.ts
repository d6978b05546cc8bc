/**
 * One payer cannot hold the worker pool (issue #32 item 8), paid with the official client on the dev chain: a payer
 * floods `read-url` at a page that answers only when the test lets it; the pool runs its share (2 workers here),
 * queues its share (2 more) and refuses the rest at once — 503 BUSY with Retry-After in the error shape, nothing
 * settled, the payment released (not counted as a failed run; the same authorization pays a later call) — while
 * another payer's `hash-digest` answers 200 before any of the flood's calls finished. Counts, never timings.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { html, serve, type Fixture } from '../net/support'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import { signPayment } from '../support/pay'
import { payingFetch } from '../support/paying-fetch'
import { post, requirementsAt, type TestServer } from '../support/server'
import { until } from '../support/until'

let chain: DevChain
let site: Fixture
let model: FakeOpenAI
let server: TestServer
let payeeBefore = 0n
let moved = 0n
/** The slow page's waiting requests: each answers when the test opens the page. */
const held: Array<() => void> = []
let open = false

beforeAll(async () => {
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  site = serve(async () => {
    if (!open) await new Promise<void>((r) => held.push(r))
    return html('<html><body><article><h1>Slow</h1><p>A page that took its time to answer.</p></article></body></html>')
  })
  model = startFakeOpenAI()
  server = await startServerOnChain(chain, {
    env: {
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'test-key',
      FETCH_ALLOW_HOSTS: site.host,
      ISOLATE_WORKERS: '2',
      ISOLATE_MAX_WORKERS: '8',
      ISOLATE_CALLER_WORKERS: '2',
      ISOLATE_CALLER_QUEUE: '2',
      INVALID_PAYMENT_LIMIT: '0',
    },
  })
})
afterAll(async () => {
  open = true
  for (const r of held.splice(0)) r()
  // money exact: /stats revenue = ledger settled total = payee's on-chain delta = what the calls that answered 200 cost
  const { delta, stats, ledger } = await stopAndTally(chain, [server], payeeBefore)
  site?.stop()
  model?.close()
  await chain?.stop()
  expect(delta).toBe(moved)
  expect(stats).toBe(delta)
  expect(ledger).toBe(delta)
})

const price = (slug: string) => {
  const svc = server.booted.services.find((s) => s.slug === slug)!
  return BigInt(svc.amounts[svc.defaultTier]!)
}
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

test('a payer flooding read-url at a slow page gets its share; the rest 503 at once, released; another payer is served meanwhile', async () => {
  const flooder = await fundedPayer(chain, 20n * price('read-url'))
  const other = await fundedPayer(chain, price('hash-digest'))
  const readUrl = { code: `${site.url}/slow` }
  const answers: Response[] = []
  const flood = Array.from({ length: 10 }, () =>
    payingFetch(flooder.key)(`${server.url}/api/v1/read-url`, json(readUrl)).then((r) => {
      answers.push(r)
      return r
    }),
  )
  // 2 running (their page asked), 2 waiting, 6 refused at once
  await until(() => answers.length === 6 && site.hits('/slow') === 2, 60_000, 'six refused, two reading the page')
  for (const r of answers) {
    expect(r.status).toBe(503)
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(r.headers.get('payment-response')).toBeNull()
    const body = (await r.json()) as {
      error: { code: string; message: string; retryable: boolean }
      request_id: string
    }
    expect(body.error.code).toBe('BUSY')
    expect(body.error.message).toContain('nothing was charged')
    expect(body.request_id).toBeString()
  }
  expect(server.booted.pool.callerSize(flooder.address.toLowerCase())).toEqual({ running: 2, waiting: 2 })

  // another payer's cheap call answers while every accepted flood call is still waiting on the page
  const cheap = await payingFetch(other.key)(`${server.url}/api/v1/hash-digest`, json({ text: 'abc', algo: 'sha256' }))
  expect(cheap.status).toBe(200)
  expect(((await cheap.json()) as { digest: string }).digest).toBe(
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  )
  moved += price('hash-digest')
  expect(answers.length).toBe(6)
  expect(site.hits('/slow')).toBe(2)

  // a payment refused by the pool is released: signed now, refused while the flood holds the share, paid later
  const header = await signPayment({
    key: flooder.key,
    requirements: await requirementsAt(`${server.url}/api/v1/read-url`),
  })
  const refusedOnce = await post(`${server.url}/api/v1/read-url`, readUrl, { 'payment-signature': header })
  expect(refusedOnce.status).toBe(503)

  // the page answers: the four accepted calls finish 200 and are charged, nothing else
  open = true
  for (const r of held.splice(0)) r()
  const statuses = (await Promise.all(flood)).map((r) => r.status).sort()
  expect(statuses).toEqual([200, 200, 200, 200, 503, 503, 503, 503, 503, 503])
  moved += 4n * price('read-url')

  // the refusals were released as unavailable, never as failed runs: the payer is not cooled down for them
  const released = (await server.booted.storage.ledger.byState(['released'])).filter(
    (r) => r.payer === flooder.address.toLowerCase(),
  )
  expect(released.map((r) => r.reason)).toEqual(Array(7).fill('unavailable 503 BUSY'))
  for (const r of released) expect(await server.booted.storage.ledger.failedRuns(r.network, r.payer, r.nonce)).toBe(0)
  const again = await post(`${server.url}/api/v1/read-url`, readUrl, { 'payment-signature': header })
  expect(again.status).toBe(200)
  moved += price('read-url')
  expect(await usdcBalance(chain.rpcUrl, flooder.address)).toBe(20n * price('read-url') - 5n * price('read-url'))
}, 120_000)

test('a streamed paid call refused by the pool is a plain 503 before any event, released, not a failed run', async () => {
  open = false
  const payer = await fundedPayer(chain, 4n * price('read-url') + 10_000n)
  const hits = site.hits('/slow')
  const reads = Array.from({ length: 4 }, () =>
    payingFetch(payer.key)(`${server.url}/api/v1/read-url`, json({ code: `${site.url}/slow` })),
  )
  await until(
    () => site.hits('/slow') === hits + 2 && server.booted.pool.callerSize(payer.address).waiting === 2,
    60_000,
    'the share running and its queue full',
  )
  const url = `${server.url}/api/v1/explain-code?tier=quick`
  const stream = await payingFetch(payer.key)(url, {
    ...json({ code: 'const add = (a, b) => a + b' }),
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
  })
  expect(stream.status).toBe(503)
  expect(stream.headers.get('content-type')).toStartWith('application/json')
  expect(Number(stream.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(((await stream.json()) as { error: { code: string } }).error.code).toBe('BUSY')
  expect(model.requests.length).toBe(0)
  open = true
  for (const r of held.splice(0)) r()
  expect((await Promise.all(reads)).map((r) => r.status)).toEqual([200, 200, 200, 200])
  moved += 4n * price('read-url')
  const released = (await server.booted.storage.ledger.byState(['released'])).filter(
    (r) => r.payer === payer.address.toLowerCase(),
  )
  expect(released.map((r) => r.reason)).toEqual(['unavailable 503 BUSY'])
  expect(await server.booted.storage.ledger.failedRuns(released[0]!.network, payer.address, released[0]!.nonce)).toBe(0)
}, 120_000)
