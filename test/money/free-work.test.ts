/**
 * Handlers never run for free (issue #13 item 4), on a real chain with the real gate:
 * a payer funded for one call cannot get more handlers run by racing authorizations; a payer whose settlement
 * fails after verification is cooled down; the refusal throttle counts only costly refusals, per client and payer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { PayerCooldowns } from '../../runtime/db/cooldowns'
import type { Facilitator } from '../../runtime/pay/types'
import { post, type TestServer, requirementsAt } from '../support/server'
import { chainFacilitator, fundedPayer, moveAway, startServerOnChain, stopAndTally } from '../support/on-chain'
import { signPayment } from '../support/pay'
import { counted, gatedEntry, withMoneyServices } from './services'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
const gated = gatedEntry()
const calls = { verify: 0 }
const servers: TestServer[] = []
let moved = 0n
let payeeBefore = 0n

const facilitator = (): Facilitator => {
  const f = chainFacilitator(chain)
  return { ...f, verify: (p, r) => (calls.verify++, f.verify(p, r)) }
}
const server = async (env: Record<string, string> = {}, entry = gated.entry) => {
  const s = await startServerOnChain(chain, { entries: withMoneyServices(entry), facilitator: facilitator(), env })
  servers.push(s)
  return s
}
const newPayer = (atomic: bigint) => fundedPayer(chain, atomic)
const moveAway1000 = (key: Hex) => moveAway(chain, key, 1000n)
const requirements = (s: TestServer, slug: string) => requirementsAt(`${s.url}/api/v1/${slug}`)
const pay = async (s: TestServer, slug: string, key: Hex, headers: Record<string, string> = {}, header?: string) =>
  post(
    `${s.url}/api/v1/${slug}`,
    { code: 'x' },
    {
      'payment-signature': header ?? (await signPayment({ key, requirements: await requirements(s, slug) })),
      ...headers,
    },
  )

beforeAll(async () => {
  chain = await startDevChain()
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
})
afterAll(async () => {
  // money exact over every server of this file: /stats revenue = ledger settled total = payee's on-chain delta
  const { delta, stats, ledger } = await stopAndTally(chain, servers, payeeBefore)
  await chain?.stop()
  expect(delta).toBe(moved)
  expect(stats).toBe(delta)
  expect(ledger).toBe(delta)
})
beforeEach(() => {
  counted.runs = 0
  calls.verify = 0
})

describe('in-flight balance reservation', () => {
  test('a payer funded for exactly one call sends 20 different authorizations at once: one handler run, one transfer', async () => {
    const s = await server({ INVALID_PAYMENT_LIMIT: '0' })
    const payer = await newPayer(1000n)
    const req = await requirements(s, 'test-counted')
    const headers = await Promise.all(
      Array.from({ length: 20 }, () => signPayment({ key: payer.key, requirements: req })),
    )
    const answers = await Promise.all(headers.map((h) => pay(s, 'test-counted', payer.key, {}, h)))
    const codes = answers.map((r) => r.status).sort()
    expect(codes).toEqual([200, ...Array(19).fill(402)])
    const reasons = await Promise.all(
      answers.filter((r) => r.status === 402).map(async (r) => ((await r.json()) as any).reason),
    )
    // refused before the handler: by the reservation, or by the simulation once the one transfer landed (which
    // one depends on timing; the property is that one handler ran)
    for (const reason of reasons)
      expect(['insufficient_balance', 'invalid_exact_evm_insufficient_balance']).toContain(reason)
    expect(counted.runs).toBe(1)
    moved += 1000n
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
    expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(1000n)
    // nothing of the payer's is left in flight in the ledger (the one place in-flight amounts live)
    const open = sqliteOf(s.booted).ledger.byState(['reserved', 'verified', 'settling', 'pending'])
    expect(open.filter((r) => r.payer === payer.address.toLowerCase())).toEqual([])
  })

  test('a payer funded for three calls gets exactly three of ten concurrent calls run', async () => {
    const s = await server({ INVALID_PAYMENT_LIMIT: '0' })
    const payer = await newPayer(3000n)
    const req = await requirements(s, 'test-counted')
    const headers = await Promise.all(
      Array.from({ length: 10 }, () => signPayment({ key: payer.key, requirements: req })),
    )
    const codes = (await Promise.all(headers.map((h) => pay(s, 'test-counted', payer.key, {}, h)))).map((r) => r.status)
    expect(codes.filter((c) => c === 200).length).toBe(3)
    expect(counted.runs).toBe(3)
    moved += 3000n
    expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(0n)
  })
})

describe('settlement failure after verification', () => {
  test('funds moved away while the handler runs: result withheld, then the payer is refused before its handler for a cool-down', async () => {
    const s = await server({ INVALID_PAYMENT_LIMIT: '0' })
    const payer = await newPayer(1000n)
    const inflight = pay(s, 'test-gated', payer.key)
    await gated.state.started
    // the payer empties its wallet between verification and settlement
    await moveAway1000(payer.key)
    gated.state.open()
    const r = await inflight
    expect(r.status).toBe(402)
    expect(JSON.stringify(await r.json())).not.toContain('"runs"')
    expect(gated.state.runs).toBe(1)
    // funded again, the next call is refused before verification and before its handler
    await fundPayer(chain, payer.address, 1000n)
    calls.verify = 0
    const again = await pay(s, 'test-gated', payer.key)
    expect(again.status).toBe(402)
    const body = (await again.json()) as any
    expect(body.reason).toBe('payer_cooling_down')
    expect(body.message).toMatch(/refused for another (2\d|30) s/)
    expect(gated.state.runs).toBe(1)
    expect(calls.verify).toBe(0)
    // another payer is not affected
    const other = await newPayer(1000n)
    expect((await pay(s, 'test-counted', other.key)).status).toBe(200)
    moved += 1000n
    expect(sqliteOf(s.booted).ledger.byState(['failed']).length).toBe(1)
  })

  test('a settlement failure after verification counts toward the refusal throttle of the client and the payer', async () => {
    const second = gatedEntry()
    const s = await server({ INVALID_PAYMENT_LIMIT: '1', TRUSTED_PROXIES: '1' }, second.entry)
    const payer = await newPayer(1000n)
    const inflight = pay(s, 'test-gated', payer.key, { 'x-forwarded-for': '10.1.1.1' })
    await second.state.started
    await moveAway1000(payer.key)
    second.state.open()
    expect((await inflight).status).toBe(402)
    const other = await newPayer(1000n)
    // the client that sent it is throttled, even with another payer
    expect((await pay(s, 'test-counted', other.key, { 'x-forwarded-for': '10.1.1.1' })).status).toBe(429)
    // the payer is throttled from any client
    await fundPayer(chain, payer.address, 1000n)
    expect((await pay(s, 'test-counted', payer.key, { 'x-forwarded-for': '10.1.1.2' })).status).toBe(429)
    // others are served
    expect((await pay(s, 'test-counted', other.key, { 'x-forwarded-for': '10.1.1.2' })).status).toBe(200)
    moved += 1000n
    expect(counted.runs).toBe(1)
  })

  test('the cool-down doubles with repeats, is capped, and starts over after a quiet period', () => {
    let now = 0
    const g = new PayerCooldowns(() => now, 30_000, 240_000)
    expect([g.strike('0xA'), g.strike('0xa'), g.strike('0xA'), g.strike('0xA'), g.strike('0xA')]).toEqual([
      30_000, 60_000, 120_000, 240_000, 240_000,
    ])
    expect(g.coolingFor('0xa')).toBe(240_000)
    now = 240_000 + 10_000
    expect(g.coolingFor('0xA')).toBe(0)
    now += 240_000
    expect(g.strike('0xA')).toBe(30_000)
  })
})

describe('the refusal throttle counts only costly refusals, per client and per payer', () => {
  test('a client racing 20 copies of its own payment (one run, one settlement, the rest refused or the kept result) does not block itself', async () => {
    const s = await server({ INVALID_PAYMENT_LIMIT: '3' })
    const payer = await newPayer(2000n)
    const header = await signPayment({ key: payer.key, requirements: await requirements(s, 'test-counted') })
    const answers = await Promise.all(Array.from({ length: 20 }, () => pay(s, 'test-counted', payer.key, {}, header)))
    // Which copies are refused and which collect the kept result depends on when each arrives: a copy racing the first
    // call is refused (402 authorization_already_used, or settlement_pending while it runs); a copy arriving after
    // the first call finished collects the kept 200 with the same settlement. Either way: one handler run, one
    // transfer, and every 200 carries the same transaction.
    const ok = answers.filter((r) => r.status === 200)
    expect(ok.length).toBeGreaterThanOrEqual(1)
    expect(new Set(ok.map((r) => r.headers.get('payment-response'))).size).toBe(1)
    const refused = answers.filter((r) => r.status !== 200)
    expect(refused.every((r) => r.status === 402)).toBe(true)
    for (const r of refused)
      expect(['authorization_already_used', 'settlement_pending']).toContain(((await r.json()) as any).reason)
    // A copy sent after the race is over always collects the kept result.
    const late = await pay(s, 'test-counted', payer.key, {}, header)
    expect(late.status).toBe(200)
    expect(late.headers.get('payment-response')).toBe(ok[0].headers.get('payment-response'))
    expect(counted.runs).toBe(1)
    expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(1000n)
    // cheap refusals (malformed headers) are not counted either
    for (let i = 0; i < 5; i++) expect((await pay(s, 'test-counted', payer.key, {}, 'e30=')).status).toBe(402)
    expect((await pay(s, 'test-counted', payer.key)).status).toBe(200)
    moved += 2000n
  })

  test('costly refusals block the client and the payer, not other clients or payers', async () => {
    const s = await server({ INVALID_PAYMENT_LIMIT: '3', TRUSTED_PROXIES: '1' })
    const broke = await newPayer(0n) // valid signatures, no funds: each refusal costs a chain simulation
    const honest = await newPayer(2000n)
    const from = (ip: string) => ({ 'x-forwarded-for': ip })
    const codes: number[] = []
    for (let i = 0; i < 4; i++) codes.push((await pay(s, 'test-counted', broke.key, from('10.0.0.1'))).status)
    expect(codes).toEqual([402, 402, 402, 429])
    expect(calls.verify).toBe(3)
    // the same client with an honest payer: blocked (client key)
    expect((await pay(s, 'test-counted', honest.key, from('10.0.0.1'))).status).toBe(429)
    // the broke payer from another client: blocked (payer key), before verification
    expect((await pay(s, 'test-counted', broke.key, from('10.0.0.2'))).status).toBe(429)
    expect(calls.verify).toBe(3)
    // an honest payer from another client is served
    expect((await pay(s, 'test-counted', honest.key, from('10.0.0.2'))).status).toBe(200)
    expect(counted.runs).toBe(1)
    moved += 1000n
  })
})
