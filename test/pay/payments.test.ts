/**
 * x402 payments end to end on a real local Base replica (anvil, chain id 8453, Circle's FiatTokenV2_2 at the
 * real USDC address), paid by the official clients. Balances are read from the chain.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch'
import { createWalletClient, http, type Hex } from 'viem'
import { base } from 'viem/chains'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import type { Facilitator } from '../../runtime/pay/types'
import { decodeB64Json, post, type TestServer, requirementsAt } from '../support/server'
import { withEcho } from '../support/extra-service'
import { startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { signPayment } from '../support/pay'
import { payingFetch } from '../support/paying-fetch'
import { chainFacilitator, startServerOnChain } from '../support/on-chain'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
let proxy: FaultProxy
let s: TestServer
const counted = { verify: 0, settle: 0 }

function countingFacilitator(inner: Facilitator): Facilitator {
  return {
    kind: inner.kind,
    verify: (p, r) => (counted.verify++, inner.verify(p, r)),
    settle: (p, r, cb) => (counted.settle++, inner.settle(p, r, cb)),
    status: (tx, p, r) => inner.status(tx, p, r),
    balance: inner.balance,
  }
}

beforeAll(async () => {
  chain = await startDevChain()
  proxy = startFaultProxy(chain.rpcUrl)
  const facilitator = countingFacilitator(chainFacilitator(chain, { rpcUrl: proxy.url }))
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    facilitator,
    env: { INVALID_PAYMENT_LIMIT: '0' },
  })
})
afterAll(async () => {
  await s?.stop()
  proxy?.stop()
  await chain?.stop()
})
beforeEach(() => {
  counted.verify = 0
  counted.settle = 0
  proxy.calls.clear()
})

const balances = async () => ({
  payer: await usdcBalance(chain.rpcUrl, chain.payer.address),
  payee: await usdcBalance(chain.rpcUrl, chain.payee.address),
})
const requirementsOf = (path: string) => requirementsAt(s.url + path)
const v2Client = (key: Hex) => payingFetch(key)
const jsonInit = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

describe('official clients pay on a real chain', () => {
  test('@x402/fetch v2 pays a utility: exact balances move and PAYMENT-RESPONSE decodes', async () => {
    const before = await balances()
    const r = await v2Client(chain.payer.privateKey as Hex)(
      s.url + '/api/v1/slugify',
      jsonInit({ text: 'Paid, on chain!' }),
    )
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ slug: 'paid-on-chain', length: 13 })
    const receipt = decodeB64Json(r.headers.get('payment-response'))
    expect(receipt).toMatchObject({ success: true, network: 'eip155:8453', payer: chain.payer.address })
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/)
    const after = await balances()
    expect(before.payer - after.payer).toBe(1000n)
    expect(after.payee - before.payee).toBe(1000n)
    const row = sqliteOf(s.booted)
      .ledger.byState(['settled'])
      .find((x) => x.tx_hash === receipt.transaction)!
    expect(row).toMatchObject({ slug: 'slugify', amount: '1000', state: 'settled' })
    const today = (await (await fetch(s.url + '/stats/today')).json()) as any
    expect(today.services.find((x: any) => x.slug === 'slugify')).toMatchObject({ paid_calls: 1, revenue_usd: 0.001 })
  })

  test('legacy x402-fetch 1.x pays from the 402 body and gets X-PAYMENT-RESPONSE', async () => {
    const before = await balances()
    const wallet = createWalletClient({
      account: privateKeyToAccount(chain.payer.privateKey as Hex),
      chain: base,
      transport: http(chain.rpcUrl),
    })
    const r = await wrapFetchV1(fetch, wallet as never)(
      s.url + '/api/slugify',
      jsonInit({ text: 'v1 client' }) as never,
    )
    expect(r.status).toBe(200)
    expect(decodeB64Json(r.headers.get('x-payment-response'))).toMatchObject({ success: true, network: 'eip155:8453' })
    expect(before.payer - (await balances()).payer).toBe(1000n)
  })
})

describe('one authorization, one use', () => {
  test('a replayed payment is refused and never runs the handler', async () => {
    const req = await requirementsOf('/api/v1/test-echo')
    const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req })
    const first = await post(s.url + '/api/v1/test-echo', { code: 'once' }, { 'payment-signature': header })
    expect(first.status).toBe(200)
    const before = await balances()
    const again = await post(s.url + '/api/v1/test-echo', { code: 'twice' }, { 'payment-signature': header })
    expect(again.status).toBe(402)
    const body = (await again.json()) as any
    expect(body.reason).toBe('authorization_already_used')
    expect(JSON.stringify(body)).not.toContain('TWICE')
    expect(await balances()).toEqual(before)
  })

  test('20 parallel copies of one signed payment give exactly one 200 and one transfer', async () => {
    const before = await balances()
    const req = await requirementsOf('/api/v1/test-echo')
    const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req })
    const rs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(s.url + '/api/v1/test-echo', { code: `copy ${i}` }, { 'payment-signature': header }),
      ),
    )
    expect(rs.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(402)])
    expect(counted.settle).toBe(1)
    const after = await balances()
    expect(before.payer - after.payer).toBe(4200n)
    expect(after.payee - before.payee).toBe(4200n)
  })
})

describe('attacks are refused with a reason, no funds moved, no result', () => {
  const cases: Array<[string, (req: any, key: Hex) => Promise<string>, string, boolean]> = [
    [
      'underpay',
      (req, key) => signPayment({ key, requirements: req, value: '4199' }),
      'invalid_exact_evm_payload_authorization_value_mismatch',
      true,
    ],
    [
      'wrong payTo',
      (req, key) => signPayment({ key, requirements: req, to: privateKeyToAccount(generatePrivateKey()).address }),
      'invalid_exact_evm_recipient_mismatch',
      true,
    ],
    [
      'wrong asset',
      (req, key) =>
        signPayment({
          key,
          requirements: req,
          accepted: { ...req, asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' },
        }),
      'no_matching_requirements',
      true,
    ],
    [
      'wrong network',
      (req, key) => signPayment({ key, requirements: req, accepted: { ...req, network: 'eip155:84532' } }),
      'invalid_network',
      true,
    ],
    [
      'expired',
      (req, key) => signPayment({ key, requirements: req, validBefore: Math.floor(Date.now() / 1000) - 1 }),
      'invalid_exact_evm_payload_authorization_valid_before',
      true,
    ],
    [
      'not yet valid',
      (req, key) => signPayment({ key, requirements: req, validAfter: Math.floor(Date.now() / 1000) + 300 }),
      'invalid_exact_evm_payload_authorization_valid_after',
      true,
    ],
    [
      'too far in the future',
      (req, key) => signPayment({ key, requirements: req, validBefore: Math.floor(Date.now() / 1000) + 3600 }),
      'invalid_exact_evm_payload_authorization_valid_before',
      true,
    ],
    [
      'signed by another key',
      async (req) => {
        const h = JSON.parse(
          Buffer.from(await signPayment({ key: generatePrivateKey(), requirements: req }), 'base64').toString(),
        )
        h.payload.authorization.from = chain.payer.address
        return Buffer.from(JSON.stringify(h)).toString('base64')
      },
      'invalid_exact_evm_signature',
      true,
    ],
    [
      'value tampered after signing',
      (req, key) => signPayment({ key, requirements: req, value: '1', tamper: { value: req.amount } }),
      'invalid_exact_evm_signature',
      true,
    ],
    [
      'altered accepted echo',
      (req, key) => signPayment({ key, requirements: req, accepted: { ...req, amount: '1' } }),
      'no_matching_requirements',
      true,
    ],
    [
      'v2 payload in the v1 header',
      async (req, key) => signPayment({ key, requirements: req }),
      'invalid_x402_version',
      true,
    ],
  ]
  test.each(cases)('%s', async (name, make, reason, noChain) => {
    const req = await requirementsOf('/api/v1/test-echo')
    const before = await balances()
    const header = await make(req, chain.payer.privateKey as Hex)
    const h: Record<string, string> = name.includes('v1 header')
      ? { 'x-payment': header }
      : { 'payment-signature': header }
    const r = await post(s.url + '/api/v1/test-echo', { code: 'secret result' }, h)
    expect(r.status).toBe(402)
    const body = (await r.json()) as any
    expect(body.reason).toBe(reason)
    expect(JSON.stringify(body)).not.toContain('SECRET RESULT')
    expect(r.headers.get('payment-required')).toBeTruthy()
    if (noChain) {
      expect(counted).toEqual({ verify: 0, settle: 0 })
      expect(proxy.total()).toBe(0)
    }
    expect(await balances()).toEqual(before)
  })

  test('an empty balance is caught by the on-chain simulation, before the handler', async () => {
    const poor = generatePrivateKey()
    const req = await requirementsOf('/api/v1/test-echo')
    const r = await post(
      s.url + '/api/v1/test-echo',
      { code: 'free lunch' },
      { 'payment-signature': await signPayment({ key: poor, requirements: req }) },
    )
    expect(r.status).toBe(402)
    expect(((await r.json()) as any).reason).toBe('invalid_exact_evm_insufficient_balance')
    expect(counted).toEqual({ verify: 1, settle: 0 })
  })
})

describe('money safety', () => {
  test('a handler failure settles nothing and frees the authorization', async () => {
    const req = await requirementsOf('/api/v1/test-echo')
    const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req })
    const before = await balances()
    const r = await post(s.url + '/api/v1/test-echo', { code: 'fail' }, { 'payment-signature': header })
    expect(r.status).toBe(422)
    expect(r.headers.get('payment-response')).toBeNull()
    const crash = await post(s.url + '/api/v1/test-echo', { code: 'crash' }, { 'payment-signature': header })
    expect(crash.status).toBe(500)
    expect(((await crash.json()) as any).error.message).not.toContain('boom')
    expect(counted.settle).toBe(0)
    expect(await balances()).toEqual(before)
    const ok = await post(s.url + '/api/v1/test-echo', { code: 'now it works' }, { 'payment-signature': header })
    expect(ok.status).toBe(200)
    expect(before.payer - (await balances()).payer).toBe(4200n)
  })

  test('the chain down gives 503 and no result; the process survives and recovers', async () => {
    proxy.down = true
    const req = await requirementsOf('/api/v1/test-echo')
    const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req })
    const r = await post(s.url + '/api/v1/test-echo', { code: 'no chain' }, { 'payment-signature': header })
    proxy.down = false
    expect(r.status).toBe(503)
    expect(((await r.json()) as any).error.code).toBe('PAYMENT_UNAVAILABLE')
    const ok = await post(s.url + '/api/v1/test-echo', { code: 'chain back' }, { 'payment-signature': header })
    expect(ok.status).toBe(200)
  })

  test('revenue in /stats equals the settled ledger and the payee balance change', async () => {
    const stats = (await (await fetch(s.url + '/stats')).json()) as any
    const settled = sqliteOf(s.booted).ledger.settledTotal()
    expect(BigInt(Math.round(stats.totals.revenue_usd * 1e6))).toBe(settled)
    const payee = await usdcBalance(chain.rpcUrl, chain.payee.address)
    expect(payee).toBe(settled)
  })
})

describe('secrets', () => {
  test('the settler key never appears in logs or responses; signatures are truncated in logs', async () => {
    const header = await signPayment({
      key: chain.payer.privateKey as Hex,
      requirements: await requirementsOf('/api/v1/test-echo'),
    })
    const r = await post(s.url + '/api/v1/test-echo', { code: 'log me' }, { 'payment-signature': header })
    expect(r.status).toBe(200)
    const signature = JSON.parse(Buffer.from(header, 'base64').toString()).payload.signature as string
    const logs = s.logs.join('\n')
    expect(logs).toContain('payment verified')
    const key = chain.settler.privateKey.replace(/^0x/, '')
    expect(logs.includes(key)).toBe(false)
    expect(logs.includes(signature)).toBe(false)
    expect(logs.includes(signature.slice(0, 10))).toBe(true)
    for (const path of ['/health', '/services', '/.well-known/x402', '/openapi.json', '/stats'])
      expect((await (await fetch(s.url + path)).text()).includes(key)).toBe(false)
  })
})

describe('POST /api/v1/verify (facilitator /verify contract, paid)', () => {
  const payFor = async (path: string, body: unknown) =>
    v2Client(chain.payer.privateKey as Hex)(s.url + path, jsonInit(body))
  test('a valid payment for another resource is reported valid and stays unused', async () => {
    const req = await requirementsOf('/api/v1/test-echo')
    const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req })
    const paymentPayload = JSON.parse(Buffer.from(header, 'base64').toString())
    const r = await payFor('/api/v1/verify', { x402Version: 2, paymentPayload, paymentRequirements: req })
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ isValid: true, payer: chain.payer.address })
    const used = await post(s.url + '/api/v1/test-echo', { code: 'still good' }, { 'payment-signature': header })
    expect(used.status).toBe(200)
  })
  test('an expired or underfunded payment is reported invalid with the reason', async () => {
    const req = await requirementsOf('/api/v1/test-echo')
    const expired = JSON.parse(
      Buffer.from(
        await signPayment({
          key: chain.payer.privateKey as Hex,
          requirements: req,
          validBefore: Math.floor(Date.now() / 1000) - 5,
        }),
        'base64',
      ).toString(),
    )
    const r = await payFor('/api/v1/verify', { x402Version: 2, paymentPayload: expired, paymentRequirements: req })
    expect(await r.json()).toEqual({
      isValid: false,
      invalidReason: 'invalid_exact_evm_payload_authorization_valid_before',
      payer: chain.payer.address,
    })
    const poor = JSON.parse(
      Buffer.from(await signPayment({ key: generatePrivateKey(), requirements: req }), 'base64').toString(),
    )
    const r2 = await payFor('/api/v1/verify', { x402Version: 2, paymentPayload: poor, paymentRequirements: req })
    expect((await r2.json()) as any).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_evm_insufficient_balance',
    })
  })
  test('requirements on another network are a 422 and are not charged', async () => {
    const before = await balances()
    const req = { ...(await requirementsOf('/api/v1/test-echo')), network: 'eip155:1' }
    const r = await payFor('/api/v1/verify', { x402Version: 2, paymentPayload: {}, paymentRequirements: req })
    expect(r.status).toBe(422)
    expect(await balances()).toEqual(before)
  })
})
