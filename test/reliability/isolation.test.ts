/**
 * Isolation (issue #24): handlers run in a pool of workers that are ended when a call outlives its deadline or
 * pushes the process past the memory ceiling. Real HTTP, real workers, paid with the official client on the dev
 * chain: a stopped call answers 504/422 in the error shape and is never charged, the worker is replaced, and
 * `/health` and cheap services answer while a bomb runs.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import { payingFetch } from '../support/paying-fetch'
import type { TestServer } from '../support/server'
import { until } from '../support/until'
import { withHostile } from '../support/hostile-service'

const MB = 1_048_576
let chain: DevChain
let server: TestServer
let payer: { key: Hex; address: Hex }
let payeeBefore = 0n
let moved = 0n

beforeAll(async () => {
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  payer = await fundedPayer(chain, 1_000_000n)
  // The ceiling sits well above what this test process already uses, so only the bomb reaches it.
  const ceiling = Math.round(process.memoryUsage.rss() / MB) + 160
  server = await startServerOnChain(chain, {
    entries: withHostile(),
    env: { ISOLATE_WORKERS: '2', ISOLATE_MAX_WORKERS: '4', ISOLATE_MEMORY_MB: String(ceiling) },
  })
})
afterAll(async () => {
  // money exact: /stats revenue = ledger settled total = payee's on-chain delta = what the calls that answered 200 cost
  const { delta, stats, ledger } = await stopAndTally(chain, [server], payeeBefore)
  await chain?.stop()
  expect(delta).toBe(moved)
  expect(stats).toBe(delta)
  expect(ledger).toBe(delta)
})

/** A paid call with the official client (402, sign, pay again); counts what a 200 costs. */
async function paid(slug: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  const res = await payingFetch(payer.key)(`${server.url}/api/v1/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
  if (res.status === 200) moved += BigInt(server.booted.services.find((s) => s.slug === slug)!.amounts.flat!)
  return res
}
const started = (slug: string) => server.logs.some((l) => l.includes(`${slug} started`))
const pool = () => server.booted.pool.size

/** While `slug` runs in a worker: /health, a cheap utility in the pool and a real service all answer. */
async function othersAnswerWhile(running: () => boolean) {
  const health = await fetch(`${server.url}/health`)
  expect(health.status).toBe(200)
  const quick = await paid('test-quick', { code: 'still here' })
  expect(quick.status).toBe(200)
  expect(await quick.json()).toEqual({ echo: 'STILL HERE' })
  const slug = await paid('slugify', { text: 'Hello World' })
  expect(slug.status).toBe(200)
  expect(((await slug.json()) as { slug: string }).slug).toBe('hello-world')
  expect(running()).toBe(true)
}

test('a handler spinning forever is stopped at its deadline: 504 in the error shape, not charged, worker replaced', async () => {
  const [before, costBefore] = [await usdcBalance(chain.rpcUrl, payer.address), moved]
  let done = false
  const call = paid('test-spin', { code: 'x' }).finally(() => (done = true))
  await until(() => started('test-spin'), 30_000, 'test-spin started')
  await othersAnswerWhile(() => !done)
  const res = await call
  expect(res.status).toBe(504)
  const body = (await res.json()) as { error: { code: string; message: string }; request_id: string }
  expect(body.error.code).toBe('HANDLER_TIMEOUT')
  expect(body.request_id).toBeString()
  expect(res.headers.get('payment-response')).toBeNull()
  // the payer paid for the cheap calls only
  expect(before - (await usdcBalance(chain.rpcUrl, payer.address))).toBe(moved - costBefore)
  // the spinning worker was ended; the next calls get a worker
  await until(() => pool().busy === 0, 10_000, 'no call running')
  expect((await paid('test-quick', { code: 'after' })).status).toBe(200)
})
