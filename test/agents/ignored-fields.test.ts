/**
 * X-Ignored-Fields: a paid 200 whose body had top-level fields the service did not use names them (they stay
 * accepted); used fields, applied aliases and a tiered service's `tier` are never listed; a field alias that loses to
 * the canonical field is listed. Real chain, real facilitator, real HTTP; money checked at the end.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { ignoredFieldsHeader } from '../../runtime/input/ignored-header'
import { decodeB64Json, startApp, type TestServer } from '../support/server'
import { signPayment } from '../support/pay'
import { chainFacilitator } from '../support/on-chain'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
let s: TestServer
let before = 0n
/** Sum of the amounts of the calls that answered 200. */
let charged = 0n
beforeAll(async () => {
  chain = await startDevChain({ payerUsdc: 1_000_000_000n })
  const facilitator = chainFacilitator(chain)
  s = await startApp({
    facilitator,
    payTo: chain.payee.address,
    env: { PAY_TO: chain.payee.address, INVALID_PAYMENT_LIMIT: '0' },
  })
  before = await usdcBalance(chain.rpcUrl, chain.payee.address)
})
afterAll(async () => {
  await s?.stop()
  await chain?.stop()
})

async function paid(slug: string, body: unknown): Promise<Response> {
  const path = `/api/v1/${slug}`
  const req = decodeB64Json((await s.post(path, {})).headers.get('payment-required')).accepts[0]
  const r = await s.post(path, body, {
    'payment-signature': await signPayment({ key: chain.payer.privateKey as Hex, requirements: req }),
  })
  if (r.status === 200) charged += BigInt(req.amount)
  return r
}

test('unused top-level fields are named on the 200, and stay accepted', async () => {
  const r = await paid('stats-toolkit', { data: [1, 2, 3], series_b: [4, 5, 6], note: 'x' })
  expect(r.status).toBe(200)
  expect(r.headers.get('x-ignored-fields')).toBe('series_b, note')
  expect(r.headers.get('access-control-expose-headers')).toContain('X-Ignored-Fields')
  expect(((await r.json()) as { count: number }).count).toBe(3)
})

test('a body that uses every field, or an alias of one, has no header', async () => {
  const a = await paid('stats-toolkit', { data: [1, 2, 3, 4], data2: [2, 4, 6, 8] })
  expect(a.status).toBe(200)
  expect(a.headers.get('x-ignored-fields')).toBeNull()
  const b = await paid('stats-toolkit', { data: [1, 2, 3, 4], y: [2, 4, 6, 8] })
  expect(b.status).toBe(200)
  expect(b.headers.get('x-ignored-fields')).toBeNull()
  // Python: statistics.correlation([1, 2, 3, 4], [2, 4, 6, 8]) == 1.0: the alias reached the handler.
  expect(((await b.json()) as { correlation: number }).correlation).toBeCloseTo(1, 12)
})

test('an alias sent with its canonical field loses and is reported', async () => {
  const r = await paid('hash-digest', { text: 'abc', encoding: 'hex', output: 'base64' })
  expect(r.status).toBe(200)
  expect(r.headers.get('x-ignored-fields')).toBe('output')
  expect(((await r.json()) as { digest: string }).digest).toBe(
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  )
})

test('a refused body is a 422 with nothing charged, whatever its extra fields', async () => {
  const r = await paid('percentage-calc', { op: 'percent-of', junk: 1 })
  expect(r.status).toBe(422)
  expect(r.headers.get('x-ignored-fields')).toBeNull()
  expect(((await r.json()) as { error: { message: string } }).error.message).toContain('percent_of')
})

test('names that are not header-safe are percent-encoded and the list is capped', () => {
  expect(ignoredFieldsHeader(['a b', 'ü', 'x,y', '\ud800'])['x-ignored-fields']).toBe('a%20b, %C3%BC, x%2Cy, %EF%BF%BD')
  const many = Array.from({ length: 25 }, (_, i) => `f${i}`)
  expect(ignoredFieldsHeader(many)['x-ignored-fields']).toEndWith('f19, (+5 more)')
  expect(ignoredFieldsHeader([])).toEqual({})
  expect(() => new Headers(ignoredFieldsHeader(['\n\r\u0000', 'é'.repeat(500)]))).not.toThrow()
})

test('revenue in /stats = settled ledger total = payee on-chain delta', async () => {
  const stats = (await (await s.fetch('/stats')).json()) as { totals: { revenue_usd: number } }
  const settled = sqliteOf(s.booted).ledger.settledTotal()
  expect(settled).toBe(charged) // three stats-toolkit calls (0.003) and one hash-digest (0.001): 10000 atomic units
  expect(charged).toBe(10_000n)
  expect(BigInt(Math.round(stats.totals.revenue_usd * 1e6))).toBe(settled)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(settled)
})
