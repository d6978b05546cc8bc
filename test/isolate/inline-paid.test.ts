/**
 * A linear service paid with the official client on the dev chain (issue #38): a small input runs on the main thread
 * (the inline runner's count moves, no worker starts), a large one in the worker pool, both charged once; a failure
 * inline is answered in the error shape and never charged. The books balance at the end: /stats revenue = ledger =
 * the payee's on-chain delta = what the calls that answered 200 cost.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type DevChain, startDevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import { payingFetch } from '../support/paying-fetch'
import type { TestServer } from '../support/server'

let chain: DevChain
let server: TestServer
let payeeBefore = 0n
let moved = 0n

beforeAll(async () => {
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  server = await startServerOnChain(chain)
})
afterAll(async () => {
  const { delta, stats, ledger } = await stopAndTally(chain, [server], payeeBefore)
  await chain?.stop()
  expect(delta).toBe(moved)
  expect(stats).toBe(delta)
  expect(ledger).toBe(delta)
})

const price = () => BigInt(server.booted.services.find((s) => s.slug === 'hash-digest')!.amounts.flat!)
const pay = (key: `0x${string}`, body: unknown) =>
  payingFetch(key)(`${server.url}/api/v1/hash-digest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

test('a small paid call runs on the main thread, a large one in a worker; each is charged once', async () => {
  const payer = await fundedPayer(chain, 10n * price())
  const { pool } = server.booted
  const [runs, started] = [pool.inline.counts.runs, pool.counts.started]

  const small = await pay(payer.key, { text: 'abc', algo: 'sha256' })
  expect(small.status).toBe(200)
  expect(small.headers.get('payment-response')).toBeString()
  expect(((await small.json()) as { digest: string }).digest).toBe(sha256('abc'))
  moved += price()
  expect(pool.inline.counts.runs).toBe(runs + 1)
  expect(pool.counts.started).toBe(started)

  // over ISOLATE_INLINE_KB: the pool runs it, as before issue #38
  const text = 'x'.repeat(20_000)
  const large = await pay(payer.key, { text, algo: 'sha256' })
  expect(large.status).toBe(200)
  expect(((await large.json()) as { digest: string }).digest).toBe(sha256(text))
  moved += price()
  expect(pool.inline.counts.runs).toBe(runs + 1)
  expect(pool.counts.started).toBeGreaterThan(started)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(8n * price())
})

test("a handler's refusal inline is a 422 in the error shape, never charged, and the service stays inline", async () => {
  const payer = await fundedPayer(chain, price())
  const { pool } = server.booted
  const runs = pool.inline.counts.runs
  const refused = await pay(payer.key, { text: 'abc', algo: 'blake2b256', key: 'k' })
  expect(refused.status).toBe(422)
  expect(refused.headers.get('payment-response')).toBeNull()
  const body = (await refused.json()) as { error: { code: string; message: string }; request_id: string }
  expect(body.error.code).toBe('INVALID_INPUT')
  expect(body.error.message).toContain('HMAC is not offered for blake2b256')
  expect(body.request_id).toBeString()
  expect(pool.inline.counts.runs).toBe(runs + 1)
  expect(pool.inline.runsHere('hash-digest')).toBe(true)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(price())
  // the same payer's next call is paid with what it still holds
  const ok = await pay(payer.key, { text: 'again' })
  expect(ok.status).toBe(200)
  moved += price()
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
})
