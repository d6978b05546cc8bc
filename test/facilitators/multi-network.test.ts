/**
 * NETWORKS=eip155:8453,eip155:84532: one server accepts two real chains (two anvil nodes, Circle's FiatTokenV2_2 on
 * each; the token's EIP-712 domain uses block.chainid). Backends are built from the config (RPC_URL_<id> +
 * SETTLER_PRIVATE_KEYS_<id>) behind the network router; the official @x402/fetch client pays on each network.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { getAddress, type Hex } from 'viem'
import { TRANSFER_WITH_AUTHORIZATION } from '../../runtime/pay/eip3009-abi'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { USDC_BASE, usdcBalance } from '../../runtime/chain/usdc'
import { boot, ConfigError } from '../../runtime/boot'
import { loadConfig } from '../../runtime/config'
import { createLogger } from '../../runtime/log'
import { networkFacilitators } from '../../runtime/pay/facilitator/per-network/backends'
import type { Facilitator, PaymentRequirements } from '../../runtime/pay/types'
import { categories, upstreams } from '../support/entries'
import { withEcho } from '../support/extra-service'
import { startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { signPayment } from '../support/pay'
import { decodeB64Json, post, refusingFacilitator, startServer, type TestServer } from '../support/server'
import { sqliteOf } from '../../runtime/db/open'

const A = 'eip155:8453'
const B = 'eip155:84532'
let chainA: DevChain
let chainB: DevChain
let proxyA: FaultProxy
let proxyB: FaultProxy
let s: TestServer
let env: Record<string, string>
let router: Facilitator

beforeAll(async () => {
  chainA = await startDevChain()
  // Chain B has its own id, so its token's domain differs from chain A's; it pays its own payee (PAY_TO_84532).
  chainB = await startDevChain({ chainId: 84532 })
  proxyA = startFaultProxy(chainA.rpcUrl)
  proxyB = startFaultProxy(chainB.rpcUrl)
  env = {
    NETWORKS: `${A},${B}`,
    RPC_URL_8453: proxyA.url,
    SETTLER_PRIVATE_KEYS_8453: chainA.settler.privateKey,
    RPC_URL_84532: proxyB.url,
    SETTLER_PRIVATE_KEYS_84532: chainB.settler.privateKey,
    // The test token on chain B sits at the Base address with Base's domain name (not Base Sepolia's USDC).
    ASSET_84532: USDC_BASE,
    ASSET_NAME_84532: 'USD Coin',
    ASSET_VERSION_84532: '2',
    PAY_TO: chainA.payee.address,
    PAY_TO_84532: chainB.payee.address,
    INVALID_PAYMENT_LIMIT: '0',
  }
  const { config, problems } = loadConfig(env)
  expect(problems).toEqual([])
  router = await networkFacilitators(config, createLogger('error'), { pollingIntervalMs: 20 })
  s = await startServer({ entries: withEcho(), facilitator: router, env })
}, 60_000)
afterAll(async () => {
  await s?.stop()
  proxyA?.stop()
  proxyB?.stop()
  await chainA?.stop()
  await chainB?.stop()
})

const payee = async () => ({
  a: await usdcBalance(chainA.rpcUrl, chainA.payee.address),
  b: await usdcBalance(chainB.rpcUrl, chainB.payee.address),
})
/**
 * The official client, registered for one network. Chain B's test token is not Base Sepolia's default USDC, so its
 * client allows that asset explicitly (spendControls.allowedAssets); chain A's token is the default Base USDC.
 */
const clientOn = (network: `${string}:${string}`, key: Hex) =>
  wrapFetchWithPayment(
    fetch,
    x402Client.fromConfig({
      schemes: [{ network, client: new ExactEvmScheme(privateKeyToAccount(key)) }],
      ...(network === B ? { spendControls: { allowedAssets: [{ network, asset: USDC_BASE }] } } : {}),
    }),
  )
const jsonInit = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
const challengeOf = async (path: string) => {
  const r = await post(s.url + path, {})
  expect(r.status).toBe(402)
  return { header: decodeB64Json(r.headers.get('payment-required')), body: (await r.json()) as any }
}
/** A chain-B (84532) TransferWithAuthorization (by chain B's payer unless `key`), signed by hand. */
const signOnB = async (to: string, value: string, key: Hex = chainB.payer.privateKey, nonce?: Hex) => {
  const acct = privateKeyToAccount(key)
  const authorization = {
    from: acct.address,
    to: getAddress(to),
    value,
    validAfter: '0',
    validBefore: String(Math.floor(Date.now() / 1000) + 60),
    nonce: nonce ?? (`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}` as Hex),
  }
  const signature = await acct.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: 84532, verifyingContract: USDC_BASE },
    types: { TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION },
    primaryType: 'TransferWithAuthorization',
    message: { ...authorization, value: BigInt(value), validAfter: 0n, validBefore: BigInt(authorization.validBefore) },
  })
  return { signature, authorization }
}
const start = { a: 0n, b: 0n }
/** Transactions sent to either node (settlements use eth_sendRawTransaction or its EIP-7966 Sync form). */
const sends = () =>
  [...proxyA.calls, ...proxyB.calls]
    .filter(([m]) => m.startsWith('eth_sendRawTransaction'))
    .reduce((a, [, n]) => a + n, 0)

describe('one server, two chains', () => {
  test('every 402 lists one accepts entry per network (v2 header and v1 body)', async () => {
    Object.assign(start, await payee())
    const { header, body } = await challengeOf('/api/v1/test-echo')
    // the exact entries, then each network's batch-settlement one (test/pay/channel-networks.test.ts)
    expect(header.accepts.map((r: any) => `${r.scheme} ${r.network}`)).toEqual([
      `exact ${A}`,
      `exact ${B}`,
      `batch-settlement ${A}`,
      `batch-settlement ${B}`,
    ])
    expect(header.accepts.slice(0, 2).map((r: any) => [r.network, r.asset, r.payTo, r.extra])).toEqual([
      [A, USDC_BASE, chainA.payee.address, { name: 'USD Coin', version: '2' }],
      [B, USDC_BASE, chainB.payee.address, { name: 'USD Coin', version: '2' }],
    ])
    expect(header.accepts[0].amount).toBe(header.accepts[1].amount)
    expect(body.accepts.map((r: any) => r.network)).toEqual(['base', 'base-sepolia'])
  })

  test('the official client registered for each network pays on that chain only, exact amounts', async () => {
    const { header } = await challengeOf('/api/v1/test-echo')
    const amount = BigInt(header.accepts[0].amount)
    const payerA0 = await usdcBalance(chainA.rpcUrl, chainA.payer.address)
    const payerB0 = await usdcBalance(chainB.rpcUrl, chainB.payer.address)
    const before = await payee()

    const onA = await clientOn(A, chainA.payer.privateKey)(s.url + '/api/v1/test-echo', jsonInit({ code: 'on A' }))
    expect(onA.status).toBe(200)
    expect(decodeB64Json(onA.headers.get('payment-response'))).toMatchObject({ success: true, network: A })
    const mid = await payee()
    expect(mid).toEqual({ a: before.a + amount, b: before.b })

    const onB = await clientOn(B, chainB.payer.privateKey)(s.url + '/api/v1/test-echo', jsonInit({ code: 'on B' }))
    expect(onB.status).toBe(200)
    expect(decodeB64Json(onB.headers.get('payment-response'))).toMatchObject({ success: true, network: B })
    expect(await payee()).toEqual({ a: before.a + amount, b: before.b + amount })
    expect(await usdcBalance(chainA.rpcUrl, chainA.payer.address)).toBe(payerA0 - amount)
    expect(await usdcBalance(chainB.rpcUrl, chainB.payer.address)).toBe(payerB0 - amount)
    const networks = (
      sqliteOf(s.booted).db.query('SELECT network FROM payments WHERE state = ? ORDER BY id').all('settled') as any[]
    ).map((r) => r.network)
    expect(networks).toEqual([A, B])
  }, 60_000)

  test('a payment naming a network we do not accept: 402 invalid_network, no RPC on either chain', async () => {
    const { header } = await challengeOf('/api/v1/test-echo')
    const calls = proxyA.total() + proxyB.total()
    const pay = await signPayment({
      key: chainA.payer.privateKey,
      requirements: header.accepts[0],
      accepted: { ...header.accepts[0], network: 'eip155:1' },
    })
    const r = await post(s.url + '/api/v1/test-echo', { code: 'x' }, { 'payment-signature': pay })
    expect(r.status).toBe(402)
    expect(((await r.json()) as any).reason).toBe('invalid_network')
    expect(proxyA.total() + proxyB.total()).toBe(calls)
  })

  test('a payment signed for chain A but sent as chain B is refused; nothing moves on either chain', async () => {
    const { header } = await challengeOf('/api/v1/test-echo')
    const before = await payee()
    const sent = sends()
    // chain B's payer holds USDC on B; the signature commits to chain A's domain (chain id 8453).
    const pay = await signPayment({
      key: chainB.payer.privateKey,
      requirements: header.accepts[0],
      to: header.accepts[1].payTo,
      accepted: header.accepts[1],
    })
    const r = await post(s.url + '/api/v1/test-echo', { code: 'x' }, { 'payment-signature': pay })
    expect(r.status).toBe(402)
    expect(((await r.json()) as any).reason).toBe('invalid_exact_evm_signature')
    expect(await payee()).toEqual(before)
    expect(sends()).toBe(sent)
  })

  test('a v1 X-PAYMENT naming base-sepolia is checked against chain B and settles there', async () => {
    const { header } = await challengeOf('/api/v1/test-echo')
    const reqB = header.accepts[1]
    const before = await payee()
    const v1 = async (network: string, to: string) => {
      const { signature, authorization } = await signOnB(to, reqB.amount)
      const x = { x402Version: 1, scheme: 'exact', network, payload: { signature, authorization } }
      return post(
        s.url + '/api/v1/test-echo',
        { code: 'v1' },
        { 'x-payment': Buffer.from(JSON.stringify(x)).toString('base64') },
      )
    }
    // Signed for chain B but naming 'base' (chain A, paying A's payee): the signature fails under chain A's domain.
    const wrong = await v1('base', header.accepts[0].payTo)
    expect(wrong.status).toBe(402)
    expect(((await wrong.json()) as any).reason).toBe('invalid_exact_evm_signature')
    expect(await payee()).toEqual(before)
    const ok = await v1('base-sepolia', reqB.payTo)
    expect(ok.status).toBe(200)
    expect(await payee()).toEqual({ a: before.a, b: before.b + BigInt(reqB.amount) })
  }, 60_000)

  test('POST /api/v1/verify checks a payment on either network (paid on chain A, verifying a chain-B payment)', async () => {
    const { header } = await challengeOf('/api/v1/test-echo')
    const reqB = header.accepts[1]
    const { signature, authorization } = await signOnB(reqB.payTo, reqB.amount)
    const paymentPayload = { x402Version: 2, accepted: reqB, payload: { signature, authorization } }
    const r = await clientOn(A, chainA.payer.privateKey)(
      s.url + '/api/v1/verify',
      jsonInit({ x402Version: 2, paymentPayload, paymentRequirements: reqB }),
    )
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ isValid: true, payer: authorization.from })
    // a network this server does not accept is a 422, and the call is not charged
    const before = await payee()
    const other = await clientOn(A, chainA.payer.privateKey)(
      s.url + '/api/v1/verify',
      jsonInit({ x402Version: 2, paymentPayload, paymentRequirements: { ...reqB, network: 'eip155:1' } }),
    )
    expect(other.status).toBe(422)
    expect(await payee()).toEqual(before)
  }, 60_000)

  test('#24: one nonce signed by one payer on both chains is two payments; both settle, each on its chain', async () => {
    const { header } = await challengeOf('/api/v1/test-echo')
    const [reqA, reqB] = header.accepts
    const key = generatePrivateKey()
    const payer = privateKeyToAccount(key).address
    await fundPayer(chainA, payer, 1_000_000n)
    await fundPayer(chainB, payer, 1_000_000n)
    const nonce = `0x${'5a'.repeat(32)}` as Hex
    const before = await payee()
    const onA = await signPayment({ key, requirements: reqA, nonce })
    const a = await post(s.url + '/api/v1/test-echo', { code: 'nonce on A' }, { 'payment-signature': onA })
    expect(a.status).toBe(200)
    const { signature, authorization } = await signOnB(reqB.payTo, reqB.amount, key, nonce)
    const onB = Buffer.from(
      JSON.stringify({ x402Version: 2, accepted: reqB, payload: { signature, authorization } }),
    ).toString('base64')
    const b = await post(s.url + '/api/v1/test-echo', { code: 'nonce on B' }, { 'payment-signature': onB })
    expect(b.status).toBe(200)
    expect(decodeB64Json(b.headers.get('payment-response'))).toMatchObject({ success: true, network: B })
    expect(await payee()).toEqual({ a: before.a + BigInt(reqA.amount), b: before.b + BigInt(reqB.amount) })
    // each authorization is still used once on its own chain: a replay on B is refused, nothing moves
    const replay = await post(s.url + '/api/v1/test-echo', { code: 'again' }, { 'payment-signature': onB })
    expect(replay.status).toBe(402)
    expect(await payee()).toEqual({ a: before.a + BigInt(reqA.amount), b: before.b + BigInt(reqB.amount) })
  }, 60_000)

  test('#24: /stats counts each network on its own: the main network in totals, every network in `networks`', async () => {
    const stats = (await (await fetch(s.url + '/stats')).json()) as any
    const now = await payee()
    const onA = sqliteOf(s.booted).ledger.settledTotal(A)
    const onB = sqliteOf(s.booted).ledger.settledTotal(B)
    expect(onA).toBe(now.a - start.a)
    expect(onB).toBe(now.b - start.b)
    expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(onA + onB)
    expect(stats.network).toBe(A)
    expect(BigInt(stats.totals.revenue_atomic)).toBe(onA)
    expect(stats.networks.map((n: any) => [n.network, BigInt(n.revenue_atomic)])).toEqual([
      [A, onA],
      [B, onB],
    ])
    expect(onA > 0n && onB > 0n).toBe(true)
    const today = (await (await fetch(s.url + '/stats/today')).json()) as any
    expect(today.network).toBe(A)
    expect(BigInt(today.totals.revenue_atomic)).toBe(onA)
    expect(today.networks.map((n: any) => n.network)).toEqual([A, B])
    expect(sends()).toBeGreaterThanOrEqual(2)
  })

  test('/health, /.well-known/x402, /discovery/resources and OpenAPI list every network', async () => {
    const health = (await (await fetch(s.url + '/health')).json()) as any
    expect(health.networks).toEqual([A, B])
    expect(Object.keys(health.facilitator.networks)).toEqual([A, B])
    expect(health.facilitator.networks[B].settlers[0].address).toBe(chainB.settler.address)
    const wk = (await (await fetch(s.url + '/.well-known/x402')).json()) as any
    expect(wk.networks).toMatchObject([
      { network: A, asset: USDC_BASE, payTo: chainA.payee.address },
      { network: B, asset: USDC_BASE, payTo: chainB.payee.address },
    ])
    const toB = (await (await fetch(s.url + `/discovery/resources?payTo=${chainB.payee.address}`)).json()) as any
    expect(toB.items.length).toBeGreaterThan(0)
    const disc = (await (await fetch(s.url + '/discovery/resources?network=eip155:84532&limit=100')).json()) as any
    expect(disc.items.length).toBeGreaterThan(0)
    for (const item of disc.items) expect(new Set(item.accepts.map((r: any) => r.network))).toEqual(new Set([A, B]))
    const openapi = (await (await fetch(s.url + '/openapi/full.json')).json()) as any
    const info = openapi.paths['/api/v1/test-echo'].post['x-payment-info']
    // x402's entries (MPP's `{ mpp }` entries follow them: docs/payments.md)
    expect(info.protocols.filter((p: any) => p.x402?.scheme === 'exact').map((p: any) => p.x402.network)).toEqual([
      A,
      B,
    ])
    expect(info.protocols.filter((p: any) => p.mpp).map((p: any) => p.mpp.network)).toEqual([A, B])
  })
})

describe('the network router', () => {
  test('an unknown network fails closed; the balance is the lowest among networks paying in that token', async () => {
    const { header } = await challengeOf('/api/v1/test-echo')
    const req: PaymentRequirements = { ...header.accepts[0], network: 'eip155:1' }
    const p = { x402Version: 2, scheme: 'exact', network: 'eip155:1', payload: {} as never, raw: {} } as const
    await expect(router.verify(p, req)).rejects.toThrow('no payment backend for network eip155:1')
    await expect(router.settle(p, req, () => {})).rejects.toThrow('no payment backend')
    // chain A's payer holds USDC on chain A only: the conservative answer is chain B's 0.
    expect(await usdcBalance(chainA.rpcUrl, chainA.payer.address)).toBeGreaterThan(0n)
    expect(await router.balance!(chainA.payer.address, USDC_BASE)).toBe(0n)
    await expect(router.balance!(chainA.payer.address, '0x00000000000000000000000000000000000000aa')).rejects.toThrow()
  })
})

describe('boot refuses a misconfigured second network', () => {
  test('every problem at once: no backend, bad key, global RPC_URL, no PAY_TO, unknown token', async () => {
    const bad = {
      NETWORKS: `${A},${B},eip155:999999`,
      RPC_URL: 'http://127.0.0.1:1',
      RPC_URL_8453: 'http://127.0.0.1:1',
      SETTLER_PRIVATE_KEYS_8453: '0x1234',
      FACILITATOR_URL_999999: 'https://facilitator.example',
      PAY_TO_999999: 'nope',
    }
    const { problems } = loadConfig(bad)
    expect(problems).toEqual(
      expect.arrayContaining([
        'RPC_URL applies to a single network; with NETWORKS set RPC_URL_<CHAINID> for each network instead',
        'RPC_URL_8453 needs SETTLER_PRIVATE_KEYS_8453 (comma-separated 32-byte hex keys)',
        `NETWORKS: ${B} has no payment backend; set RPC_URL_84532 with SETTLER_PRIVATE_KEYS_84532, or FACILITATOR_URL_84532`,
        expect.stringContaining('set ASSET_999999, ASSET_NAME_999999 and ASSET_VERSION_999999'),
        expect.stringContaining('PAY_TO is required'),
        'PAY_TO_999999 must be a 0x address',
      ]),
    )
    const err = await boot({
      env: { PATH: process.env.PATH, ...bad },
      entries: withEcho(),
      upstreams,
      categories,
      facilitator: refusingFacilitator(),
    }).catch((e) => e)
    expect(err).toBeInstanceOf(ConfigError)
    expect(err.problems).toEqual(expect.arrayContaining(problems))
  })

  test('NETWORK alone (or a one-item NETWORKS) keeps one network with the global backend', () => {
    const one = loadConfig({
      NETWORKS: B,
      RPC_URL: 'http://127.0.0.1:1',
      SETTLER_PRIVATE_KEY: '11'.repeat(32),
      PAY_TO: chainA.payee.address,
    })
    expect(one.problems).toEqual([])
    expect(one.config.networks[0].network).toBe(B)
    expect(one.config.networks).toEqual([
      expect.objectContaining({ network: B, rpcUrl: 'http://127.0.0.1:1', assetName: 'USDC' }),
    ])
  })
})
