/**
 * MPP beside x402 on the dev chain (anvil, Circle's USDC), with mppx's own client (`evm` `charge`, polyfill off):
 * every built utility paid once through `Authorization: Payment` (the test records which header carried each
 * payment), the official x402 client still paying the same 402, the books across both protocols (payee delta =
 * /stats revenue = ledger), a credential sent again (the same request collects its kept result, another request is
 * refused), and the credentials that must not pay: concurrent copies, expired, wrong-recipient, wrong-amount, forged,
 * and both protocols at once; nothing moves for any of them. A settlement left pending: test/pay/mpp-pending.test.ts.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Challenge, Receipt } from 'mppx'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { challengesFor } from '../../runtime/pay/schemes/mpp/challenge'
import { issues } from '../../runtime/input/validate'
import { entries } from '../support/entries'
import { withEcho } from '../support/extra-service'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import { carriedBy, challengesOf, mppClient, signCredential, tampered } from '../support/mpp'
import { payingFetch } from '../support/paying-fetch'
import { decodeB64Json, type TestServer } from '../support/server'

const SECRET = 'mpp-test-secret-0123456789-abcdefghijklmnop'
const REALM = 'mpp.test'
let chain: DevChain
let s: TestServer
let payeeBefore: bigint
beforeAll(async () => {
  chain = await startDevChain({ payerUsdc: 10_000_000_000n })
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    env: { INVALID_PAYMENT_LIMIT: '0', MPP_SECRET_KEY: SECRET, MPP_REALM: REALM },
  })
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
})
afterAll(async () => {
  await chain?.stop()
})

const paidable = entries.filter((e) => e.handler && !e.manifest.needs?.length && e.manifest.examples?.length)
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const payee = () => usdcBalance(chain.rpcUrl, chain.payee.address)
/** Money expected at the payee by the end (every successful payment of this file), and of it paid through MPP. */
let expected = 0n
let viaMpp = 0n

test('one 402, both protocols: PAYMENT-REQUIRED unchanged and WWW-Authenticate: Payment evm/charge for the same price', async () => {
  const res = await fetch(`${s.url}/api/v1/slugify`, json({}))
  expect(res.status).toBe(402)
  const x402 = decodeB64Json(res.headers.get('payment-required'))
  expect(x402.accepts[0]).toMatchObject({ scheme: 'exact', network: 'eip155:8453' })
  const body = (await res.json()) as any
  expect(body.x402Version).toBe(1)
  const [c, ...more] = challengesOf(res)
  expect(more).toEqual([])
  expect(c).toMatchObject({ method: 'evm', intent: 'charge', realm: REALM })
  expect(Challenge.verify(c, { secretKey: SECRET })).toBe(true)
  expect(c.request).toMatchObject({
    amount: x402.accepts[0].amount,
    currency: x402.accepts[0].asset,
    recipient: x402.accepts[0].payTo,
    methodDetails: { chainId: 8453, credentialTypes: ['authorization'], decimals: 6 },
  })
  expect(Date.parse(c.expires!)).toBeGreaterThan(Date.now())
  const exposed = res.headers.get('access-control-expose-headers')!
  expect(exposed).toContain('WWW-Authenticate')
  expect(exposed).toContain('Payment-Receipt')
})

test('published: /services, the manifest, both OpenAPI documents and llms.txt describe MPP beside x402', async () => {
  const get = async (path: string) => (await fetch(s.url + path)).json() as Promise<any>
  const terms = { method: 'evm', intent: 'charge', realm: REALM, networks: [{ network: 'eip155:8453', chainId: 8453 }] }
  expect((await get('/services')).mpp).toMatchObject(terms)
  const manifest = await get('/.well-known/x402')
  expect(manifest.mpp).toMatchObject(terms)
  expect(manifest.mcp.payment).toContain('org.paymentauth/credential')
  const agent = await get('/openapi.json')
  expect(agent.paths['/api/v1/{slug}'].post['x-payment-info'].protocols).toContainEqual({
    mpp: { method: 'evm', intent: 'charge', currency: manifest.asset, network: 'eip155:8453', chainId: 8453 },
  })
  expect(agent.info['x-guidance']).toContain('Authorization: Payment')
  const full = await get('/openapi/full.json')
  expect(full.paths['/api/v1/slugify'].post['x-payment-info'].protocols.some((p: any) => p.mpp)).toBe(true)
  const llms = await (await fetch(`${s.url}/llms.txt`)).text()
  expect(llms).toContain('## How to pay (MPP)')
  expect(llms).toContain(`realm="${REALM}"`)
  expect(llms).toContain('Payment-Receipt')
})

test(`mppx's client pays ${paidable.length} utilities through Authorization: Payment, each answer with a Payment-Receipt`, async () => {
  const payer = await fundedPayer(chain, 1_000_000_000n)
  const { fetch: pay, carried } = mppClient(payer.key)
  const failures: string[] = []
  let spent = 0n
  for (const e of paidable) {
    const path = `/api/v1/${e.folder}`
    const price = BigInt(
      decodeB64Json((await fetch(s.url + path, json({}))).headers.get('payment-required')).accepts[0].amount,
    )
    const before = carried.length
    const r = await pay(s.url + path, json(e.manifest.examples[0].input))
    const body = await r.json()
    if (r.status !== 200) {
      failures.push(`${e.folder}: ${r.status} ${JSON.stringify(body).slice(0, 200)}`)
      continue
    }
    // One unpaid probe, then one request carrying MPP's credential (never x402's).
    if (carried.slice(before).join() !== 'none,authorization: payment')
      failures.push(`${e.folder}: carried ${carried.slice(before).join()}`)
    const bad = issues(e.manifest.output, body)
    if (bad.length) failures.push(`${e.folder}: output ${bad[0].path} ${bad[0].message}`)
    const receipt = Receipt.fromResponse(r) as any
    if (receipt.status !== 'success' || receipt.method !== 'evm' || !/^0x[0-9a-f]{64}$/.test(receipt.reference))
      failures.push(`${e.folder}: receipt ${JSON.stringify(receipt).slice(0, 120)}`)
    if (receipt.chainId !== 8453 || !receipt.challengeId || !receipt.extensions?.['offer-receipt']?.info?.receipt)
      failures.push(`${e.folder}: receipt fields ${Object.keys(receipt)}`)
    if (r.headers.get('payment-response')) failures.push(`${e.folder}: an x402 PAYMENT-RESPONSE on an MPP answer`)
    spent += price
  }
  expect(failures).toEqual([])
  expect(paidable.length).toBeGreaterThan(60)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(1_000_000_000n - spent)
  expected += spent
  viaMpp += spent
}, 600_000)

test('the official x402 client still pays the same 402 through PAYMENT-SIGNATURE', async () => {
  const payer = await fundedPayer(chain, 10_000_000n)
  const seen: string[] = []
  const base = ((input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    seen.push(carriedBy(req.headers))
    return fetch(req)
  }) as typeof fetch
  const pay = payingFetch(payer.key, base)
  for (const slug of ['slugify', 'uuid-generate']) {
    const r = await pay(
      `${s.url}/api/v1/${slug}`,
      json(entries.find((e) => e.folder === slug)!.manifest.examples[0].input),
    )
    expect(r.status).toBe(200)
    expect(decodeB64Json(r.headers.get('payment-response')).success).toBe(true)
    expect(r.headers.get('payment-receipt')).toBeNull()
  }
  expect(seen).toEqual(['none', 'payment-signature', 'none', 'payment-signature'])
  expected += 10_000_000n - (await usdcBalance(chain.rpcUrl, payer.address))
})

/** A fresh MPP credential for slugify signed by `key` (mppx's client on the 402 it got). */
async function credential(key: Hex, path = '/api/v1/slugify') {
  const { mppx } = mppClient(key)
  return mppx.createCredential(await fetch(s.url + path, json({})))
}
const paidWith = (authorization: string, extra: Record<string, string> = {}, body: unknown = { text: 'mpp' }) =>
  fetch(`${s.url}/api/v1/slugify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization, ...extra },
    body: JSON.stringify(body),
  })
const problemOf = async (r: Response) => {
  expect(r.status).toBe(402)
  expect(r.headers.get('content-type')).toContain('application/problem+json')
  // A fresh challenge of both protocols with every refusal.
  expect(challengesOf(r).length).toBe(1)
  expect(r.headers.get('payment-required')).toBeTruthy()
  const p = (await r.json()) as any
  expect(p.status).toBe(402)
  return p.type.replace('https://paymentauth.org/problems/', '') as string
}

test('a used credential: the same request collects its kept result (same receipt, not charged again), another request is refused (invalid-challenge); concurrent copies settle once', async () => {
  const payer = await fundedPayer(chain, 1_000_000n)
  const once = await credential(payer.key)
  const first = await paidWith(once)
  expect(first.status).toBe(200)
  const body = await first.text()
  const again = await paidWith(once)
  expect(again.status).toBe(200)
  expect(await again.text()).toBe(body)
  expect(again.headers.get('payment-receipt')).toBe(first.headers.get('payment-receipt'))
  expect(again.headers.get('payment-response')).toBeNull()
  expect(await problemOf(await paidWith(once, {}, { text: 'another body' }))).toBe('invalid-challenge')
  const copies = await credential(payer.key)
  const answers = await Promise.all(Array.from({ length: 6 }, () => paidWith(copies)))
  // One settles; a copy that comes after its result was kept collects that result, the others are refused.
  const paid = answers.filter((r) => r.status === 200)
  expect(paid.length).toBeGreaterThanOrEqual(1)
  expect(new Set(paid.map((r) => Receipt.fromResponse(r).reference)).size).toBe(1)
  expect(answers.every((r) => r.status === 200 || r.status === 402)).toBe(true)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(1_000_000n - 2n * 1000n)
  expected += 2000n
  viaMpp += 2000n
})

test('expired, wrong-recipient, wrong-amount, forged, malformed and doubled credentials are refused with nothing moved', async () => {
  const payer = await fundedPayer(chain, 1_000_000n)
  const before = await payee()
  const good = await credential(payer.key)
  const entry = decodeB64Json((await fetch(`${s.url}/api/v1/slugify`, json({}))).headers.get('payment-required'))
    .accepts[0]
  const keys = { secretKey: SECRET, realm: REALM, source: 'MPP_SECRET_KEY' as const }
  const mint = (e: typeof entry, nowMs = Date.now(), k = keys) => challengesFor(k, [e], 60, nowMs)[0]
  // Expired: a genuine challenge (our key) whose expires has passed (signed anyway: mppx's client refuses to).
  const expired = await signCredential(payer.key, mint(entry, Date.now() - 120_000))
  expect(await problemOf(await paidWith(expired))).toBe('payment-expired')
  // Wrong recipient, signed as such: a challenge (our key) for another payTo.
  const elsewhere = await signCredential(payer.key, mint({ ...entry, payTo: chain.admin.address }))
  expect(await problemOf(await paidWith(elsewhere))).toBe('invalid-challenge')
  // Our challenge, but the authorization signed to another recipient.
  const divert = await signCredential(payer.key, mint(entry), { to: chain.admin.address })
  expect(await problemOf(await paidWith(divert))).toBe('verification-failed')
  // Wrong amount: a genuine challenge of ours for 1 atomic unit; and our challenge signed for less.
  const cheap = await signCredential(payer.key, mint({ ...entry, amount: '1' }))
  expect(await problemOf(await paidWith(cheap))).toBe('invalid-challenge')
  const less = await signCredential(payer.key, mint(entry), { value: '1' })
  expect(await problemOf(await paidWith(less))).toBe('payment-insufficient')
  // Not our challenge (another server's secret).
  const foreign = await signCredential(payer.key, mint(entry, Date.now(), { ...keys, secretKey: 'x'.repeat(40) }))
  expect(await problemOf(await paidWith(foreign))).toBe('invalid-challenge')
  // Forged: the payer's name on another key's signature.
  const other = await fundedPayer(chain, 0n)
  const forgedBy = await credential(other.key)
  const forged = tampered(forgedBy, (c) => {
    c.payload.from = payer.address
    c.source = `did:pkh:eip155:8453:${payer.address}`
  })
  expect(await problemOf(await paidWith(forged))).toBe('verification-failed')
  // The payload's value or recipient changed after signing.
  expect(await problemOf(await paidWith(tampered(good, (c) => (c.payload.value = '999'))))).toBe('payment-insufficient')
  expect(await problemOf(await paidWith(tampered(good, (c) => (c.payload.to = chain.admin.address))))).toBe(
    'verification-failed',
  )
  expect(await problemOf(await paidWith('Payment not-a-credential'))).toBe('malformed-credential')
  // Both protocols at once: 400, nothing read.
  const both = await paidWith(good, { 'payment-signature': 'eyJ4NDAyVmVyc2lvbiI6Mn0=' })
  expect(both.status).toBe(400)
  expect(((await both.json()) as any).error.code).toBe('TWO_PAYMENT_CREDENTIALS')
  expect(await payee()).toBe(before)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(1_000_000n)
  // The good credential, untouched by all of the above, still pays once.
  expect((await paidWith(good)).status).toBe(200)
  expected += 1000n
  viaMpp += 1000n
})

test('a failed call is never settled: the handler fails (422, 500), nothing moves, and the unspent credential still pays once', async () => {
  const payer = await fundedPayer(chain, 1_000_000n)
  const before = await payee()
  const authorization = await credential(payer.key, '/api/v1/test-echo')
  const echo = (code: string) =>
    fetch(`${s.url}/api/v1/test-echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ code }),
    })
  const failed = await echo('fail')
  expect(failed.status).toBe(422)
  expect(failed.headers.get('payment-receipt')).toBeNull()
  const crashed = await echo('crash')
  expect(crashed.status).toBe(500)
  expect(crashed.headers.get('payment-receipt')).toBeNull()
  expect(await payee()).toBe(before)
  expect(await usdcBalance(chain.rpcUrl, payer.address)).toBe(1_000_000n)
  const paid = await echo('hello')
  expect(paid.status).toBe(200)
  expect(((await paid.json()) as any).echo).toBe('HELLO')
  expect(Receipt.fromResponse(paid).reference).toMatch(/^0x[0-9a-f]{64}$/)
  // Sent again for the same request: the kept result and its receipt, nothing run or charged again.
  const collected = await echo('hello')
  expect(collected.status).toBe(200)
  expect(collected.headers.get('payment-receipt')).toBe(paid.headers.get('payment-receipt'))
  expect(await problemOf(await echo('other'))).toBe('invalid-challenge')
  expect(await payee()).toBe(before + 4200n)
  expected += 4200n
  viaMpp += 4200n
})

test('books across both protocols: payee delta = /stats revenue = ledger, and /stats splits it by protocol', async () => {
  const report = (await (await fetch(`${s.url}/stats`)).json()) as any
  expect(BigInt(report.protocols.mpp.revenue_atomic)).toBe(viaMpp)
  expect(BigInt(report.protocols.x402.revenue_atomic)).toBe(expected - viaMpp)
  expect(report.protocols.mpp.paid_calls).toBe(paidable.length + 4)
  const { delta, stats, ledger } = await stopAndTally(chain, [s], payeeBefore)
  expect(delta).toBe(expected)
  expect(stats).toBe(delta)
  expect(ledger).toBe(delta)
})
