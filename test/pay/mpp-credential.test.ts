/**
 * MPP's challenge and credential without a chain (runtime/pay/schemes/mpp): the 402's `WWW-Authenticate: Payment`
 * challenges as mppx's own client reads them, the credential that client signs bound back to the resource, and every
 * tampering refused with its paymentauth.org problem type before the shared engine sees it.
 */
import { expect, test } from 'bun:test'
import { Challenge } from 'mppx'
import { evm, Mppx } from 'mppx/client'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { challengesFor, headerOf } from '../../runtime/pay/schemes/mpp/challenge'
import { bindCredential, isProblem } from '../../runtime/pay/schemes/mpp/credential'
import { mppKeys, type MppKeys } from '../../runtime/pay/schemes/mpp/secret'
import { encodeParam } from '../../runtime/pay/schemes/mpp/wire'
import { loadConfig } from '../../runtime/config'
import type { PaymentRequirements } from '../../runtime/pay/types'

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const keys: MppKeys = { secretKey: 'k'.repeat(40), realm: 'api.example.test', source: 'MPP_SECRET_KEY' }
const entry = (network: string, amount = '1000'): PaymentRequirements => ({
  scheme: 'exact',
  network,
  amount,
  asset: USDC,
  payTo: '0x1111111111111111111111111111111111111111',
  maxTimeoutSeconds: 60,
  extra: { name: 'USD Coin', version: '2' },
})
const accepts = [entry('eip155:8453')]
const account = privateKeyToAccount(generatePrivateKey())
const client = Mppx.create({ methods: [evm.charge({ account, currencies: [evm.assets.base.USDC] })], polyfill: false })

/** The credential mppx's client signs for a 402 carrying `header` (an x402-free 402: MPP is the only offer). */
const credentialFor = (header: string) =>
  client.createCredential(new Response('{}', { status: 402, headers: { 'www-authenticate': header } }))

/** `header`'s credential JSON changed by `f`, encoded again. */
function tampered(header: string, f: (c: any) => void): string {
  const c = JSON.parse(Buffer.from(header.replace(/^Payment\s+/, ''), 'base64url').toString())
  f(c)
  return `Payment ${Buffer.from(JSON.stringify(c)).toString('base64url')}`
}

test('one evm/charge challenge per EVM network, HMAC-bound, expiring; mppx parses it and pays it natively', async () => {
  const two = challengesFor(keys, [entry('eip155:8453'), entry('eip155:84532'), { ...entry('solana:x') }], 60)
  expect(two.map((c) => (c.request as any).methodDetails.chainId)).toEqual([8453, 84532])
  for (const c of two) {
    expect([c.method, c.intent, c.realm]).toEqual(['evm', 'charge', keys.realm])
    expect(Challenge.verify(c, { secretKey: keys.secretKey })).toBe(true)
    expect(Challenge.verify(c, { secretKey: 'x'.repeat(40) })).toBe(false)
    expect(Date.parse(c.expires!) - Date.now()).toBeGreaterThan(50_000)
  }
  // two 402s of one entry: two challenges (fresh opaque, its JCS form), one request object (encoded once)
  const [a, b] = [challengesFor(keys, accepts, 60)[0], challengesFor(keys, accepts, 60)[0]]
  const n = JSON.parse(Buffer.from(a.opaque!, 'base64url').toString()) as { n: string }
  expect(Object.keys(n)).toEqual(['n'])
  expect(a.opaque).toBe(encodeParam({ n: n.n }))
  expect(a.id).not.toBe(b.id)
  expect(a.request).toBe(b.request)
  const header = headerOf(challengesFor(keys, accepts, 60))
  expect(Buffer.byteLength(header)).toBeLessThan(600)
  const credential = await credentialFor(header)
  expect(credential).toStartWith('Payment ')
  const bound = bindCredential(credential, accepts, keys)
  if (isProblem(bound)) throw new Error(bound.detail)
  expect(bound.payment.payload.authorization.from).toBe(account.address)
  expect(bound.payment.payload.authorization.value).toBe('1000')
  expect(bound.requirements).toBe(accepts[0])
  expect((bound.payment.raw as any).extensions['org.paymentauth'].challengeId).toBe(bound.challenge.id)
})

test('tampered, foreign, expired and malformed credentials are refused with their problem type', async () => {
  const header = headerOf(challengesFor(keys, accepts, 60))
  const good = await credentialFor(header)
  const typeOf = (h: string, a = accepts, k = keys, now?: number) => {
    const b = bindCredential(h, a, k, now)
    return isProblem(b) ? b.type : 'bound'
  }
  expect(typeOf(good)).toBe('bound')
  expect(typeOf('Payment !!!')).toBe('malformed-credential')
  expect(typeOf('Payment ' + Buffer.from('{"payload":{}}').toString('base64url'))).toBe('malformed-credential')
  // Another server's secret or realm: not our challenge.
  expect(typeOf(good, accepts, { ...keys, secretKey: 'z'.repeat(40) })).toBe('invalid-challenge')
  expect(typeOf(good, accepts, { ...keys, realm: 'elsewhere.test' })).toBe('invalid-challenge')
  // The echoed request changed (a lower amount, another recipient): the HMAC id no longer matches.
  const lower = tampered(good, (c) => {
    const r = JSON.parse(Buffer.from(c.challenge.request, 'base64url').toString())
    r.amount = '1'
    c.challenge.request = Buffer.from(JSON.stringify(r)).toString('base64url')
  })
  expect(typeOf(lower)).toBe('invalid-challenge')
  // A genuine challenge for another price (another resource): refused against this one.
  expect(typeOf(good, [entry('eip155:8453', '2000')])).toBe('invalid-challenge')
  // The payload changed: amount, recipient, nonce.
  expect(typeOf(tampered(good, (c) => (c.payload.value = '999')))).toBe('payment-insufficient')
  expect(typeOf(tampered(good, (c) => (c.payload.to = '0x2222222222222222222222222222222222222222')))).toBe(
    'verification-failed',
  )
  expect(typeOf(tampered(good, (c) => (c.payload.nonce = `0x${'ab'.repeat(32)}`)))).toBe('invalid-payload')
  expect(typeOf(tampered(good, (c) => (c.payload.type = 'transaction')))).toBe('invalid-payload')
  // Past its expires.
  expect(typeOf(good, accepts, keys, Date.now() + 120_000)).toBe('payment-expired')
})

test('MPP_SECRET_KEY under 32 bytes and a long or quoted MPP_REALM are problems at boot; unset, the key is derived', () => {
  const problems = (env: Record<string, string>) => loadConfig(env).problems.filter((p) => p.includes('MPP'))
  expect(problems({ MPP_SECRET_KEY: 'short' })).toEqual([
    'MPP_SECRET_KEY must be at least 32 bytes (e.g. `openssl rand -base64 48`)',
  ])
  expect(problems({ MPP_REALM: 'x'.repeat(65) })).toHaveLength(1)
  expect(problems({ MPP_REALM: 'a"b' })).toHaveLength(1)
  expect(problems({ MPP_REALM: 'api.example.com', MPP_SECRET_KEY: 'y'.repeat(40) })).toEqual([])
  // unset on the dev chain: a development key (boot warns); with a settler key: derived from it, never the key itself
  const dev = mppKeys(loadConfig({}).config)
  expect(dev?.source).toBe('dev chain (fixed development key)')
  const settler = `0x${'11'.repeat(32)}`
  const derived = mppKeys(
    loadConfig({ RPC_URL: 'http://127.0.0.1:1', SETTLER_PRIVATE_KEY: settler, PAY_TO: `0x${'22'.repeat(20)}` }).config,
  )
  expect(derived?.source).toBe('derived from the settler key')
  expect(derived?.secretKey).not.toContain('1111')
  expect(Buffer.byteLength(derived!.secretKey)).toBeGreaterThanOrEqual(32)
  expect(mppKeys(loadConfig({ MPP_SECRET_KEY: 'y'.repeat(40), MPP_REALM: 'r.test' }).config)).toMatchObject({
    secretKey: 'y'.repeat(40),
    realm: 'r.test',
    source: 'MPP_SECRET_KEY',
  })
})
