/**
 * Payment channels on every network (issue #26, NETWORKS=eip155:8453,eip155:84532): two dev chains, each
 * self-facilitated (RPC_URL_<id> + SETTLER_PRIVATE_KEYS_<id>), each with the batch-settlement contracts. Every 402
 * offers each network's `batch-settlement` entry after the `exact` ones (that network's payTo and receiver
 * authorizer); the official client (`@x402/fetch` + `@x402/evm/batch-settlement/client`) pays by channel on both;
 * /stats, the console and the published terms are per network; at shutdown each network's claim engine claims and
 * sweeps on its own chain, to its own PAY_TO.
 * Money check per network: payee's on-chain delta = swept = the sum of the charges = /stats figures.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { concat, keccak256, toHex, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { USDC_BASE, usdcBalance } from '../../runtime/chain/usdc'
import { loadConfig } from '../../runtime/config'
import { createLogger } from '../../runtime/log'
import { AUTHORIZER_LABEL } from '../../runtime/pay/schemes/batch-settlement/facilitator'
import { networkFacilitators } from '../../runtime/pay/facilitator/per-network/backends'
import { channelPayer, clientFor } from '../support/channels'
import { startOfficialFacilitator } from '../support/official-facilitator'
import { withEcho } from '../support/extra-service'
import { decodeB64Json, startServer, type TestServer } from '../support/server'

const A = 'eip155:8453'
const B = 'eip155:84532'
const PRICE = 4200n // test-echo: $0.0042
const MIN_DEPOSIT = 100_000n // CHANNEL_MIN_DEPOSIT_USD 0.1
const ADMIN_TOKEN = 'channel-networks-test-admin-token-0123'

let chainA: DevChain
let chainB: DevChain
let s: TestServer
let stopped = false
const before = { a: 0n, b: 0n }

beforeAll(async () => {
  ;[chainA, chainB] = await Promise.all([startDevChain(), startDevChain({ chainId: 84532 })])
  const env = {
    NETWORKS: `${A},${B}`,
    RPC_URL_8453: chainA.rpcUrl,
    SETTLER_PRIVATE_KEYS_8453: chainA.settler.privateKey,
    RPC_URL_84532: chainB.rpcUrl,
    SETTLER_PRIVATE_KEYS_84532: chainB.settler.privateKey,
    ASSET_84532: USDC_BASE,
    ASSET_NAME_84532: 'USD Coin',
    ASSET_VERSION_84532: '2',
    PAY_TO: chainA.payee.address,
    PAY_TO_84532: chainB.payee.address,
    CHANNEL_MIN_DEPOSIT_USD: '0.1',
    ADMIN_TOKEN,
  }
  const { config, problems } = loadConfig(env)
  expect(problems).toEqual([])
  const facilitator = await networkFacilitators(config, createLogger('error'), { pollingIntervalMs: 20 })
  s = await startServer({ entries: withEcho(), facilitator, env })
  before.a = await usdcBalance(chainA.rpcUrl, chainA.payee.address)
  before.b = await usdcBalance(chainB.rpcUrl, chainB.payee.address)
}, 60_000)
afterAll(async () => {
  if (!stopped) await s?.stop()
  await chainA?.stop()
  await chainB?.stop()
})

const derived = (key: string) => privateKeyToAccount(keccak256(concat([key as Hex, toHex(AUTHORIZER_LABEL)]))).address
const echo = (pay: (input: string, init?: RequestInit) => Promise<Response>, code: string, on = s) =>
  pay(`${on.url}/api/v1/test-echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  })
/** The official channel client on one network (chain B's test token is not Base Sepolia's USDC: allowed explicitly). */
const channelFetch = (network: typeof A | typeof B, chain: DevChain, key: Hex) =>
  wrapFetchWithPayment(
    fetch,
    x402Client.fromConfig({
      schemes: [{ network, client: clientFor(chain.rpcUrl, key) }],
      ...(network === B ? { spendControls: { allowedAssets: [{ network, asset: USDC_BASE }] } } : {}),
    }),
  )

test('every 402 lists each network’s exact entry, then each network’s batch-settlement entry (its payTo and authorizer)', async () => {
  const res = await s.post('/api/v1/test-echo', { code: 'hi' })
  expect(res.status).toBe(402)
  const { accepts } = decodeB64Json(res.headers.get('payment-required'))
  expect(accepts.map((r: any) => [r.scheme, r.network, r.payTo])).toEqual([
    ['exact', A, chainA.payee.address],
    ['exact', B, chainB.payee.address],
    ['batch-settlement', A, chainA.payee.address],
    ['batch-settlement', B, chainB.payee.address],
  ])
  expect(accepts[2].extra).toMatchObject({
    receiverAuthorizer: derived(chainA.settler.privateKey),
    minDeposit: String(MIN_DEPOSIT),
  })
  expect(accepts[3].extra).toMatchObject({
    receiverAuthorizer: derived(chainB.settler.privateKey),
    minDeposit: String(MIN_DEPOSIT),
  })
  // published per network: /services, /.well-known/x402, OpenAPI, llms.txt
  const terms = (r: any) => ({
    min_deposit: String(MIN_DEPOSIT),
    withdraw_delay_s: 86_400,
    receiver_authorizer: r.extra.receiverAuthorizer,
  })
  const services = (await (await s.fetch('/services')).json()) as any
  expect(services.schemes).toEqual(['exact', 'batch-settlement'])
  expect(services.batch_settlement).toEqual(terms(accepts[2]))
  expect(services.networks).toEqual([
    { network: A, asset: USDC_BASE, schemes: ['exact', 'batch-settlement'], batch_settlement: terms(accepts[2]) },
    { network: B, asset: USDC_BASE, schemes: ['exact', 'batch-settlement'], batch_settlement: terms(accepts[3]) },
  ])
  const wk = (await (await s.fetch('/.well-known/x402')).json()) as any
  expect(wk.networks.map((n: any) => [n.network, n.payTo, n.batch_settlement])).toEqual([
    [A, chainA.payee.address, terms(accepts[2])],
    [B, chainB.payee.address, terms(accepts[3])],
  ])
  const openapi = (await (await s.fetch('/openapi/full.json')).json()) as any
  const protocols = openapi.paths['/api/v1/test-echo'].post['x-payment-info'].protocols.filter((p: any) => p.x402) // x402's entries; MPP's { mpp } ones follow (docs/payments.md)
  expect(protocols.map((p: any) => [p.x402.network, p.x402.scheme, p.x402.receiverAuthorizer])).toEqual([
    [A, 'exact', undefined],
    [A, 'batch-settlement', accepts[2].extra.receiverAuthorizer],
    [B, 'exact', undefined],
    [B, 'batch-settlement', accepts[3].extra.receiverAuthorizer],
  ])
  expect(await (await s.fetch('/llms.txt')).text()).toContain(`after the \`exact\` ones, on ${A}, ${B}`)
  const disc = (await (
    await s.fetch(`/discovery/resources?network=${B}&scheme=batch-settlement&limit=100`)
  ).json()) as any
  expect(disc.items.length).toBeGreaterThan(0)
})

test('a batch-settlement payment naming a network without channels is a 402, nothing held', async () => {
  const res = await s.post('/api/v1/test-echo', { code: 'x' })
  const { accepts } = decodeB64Json(res.headers.get('payment-required'))
  const payload = { x402Version: 2, accepted: { ...accepts[3], network: 'eip155:1' }, payload: {} }
  const r = await s.post(
    '/api/v1/test-echo',
    { code: 'x' },
    { 'payment-signature': Buffer.from(JSON.stringify(payload)).toString('base64') },
  )
  expect(r.status).toBe(402)
  expect(decodeB64Json(r.headers.get('payment-required')).error).toBe('invalid_batch_settlement_evm_network_mismatch')
})

test('the official client pays by channel on both networks; at shutdown each network claims and sweeps to its own PAY_TO', async () => {
  const onA = await channelPayer(chainA, 1_000_000n)
  const onB = await channelPayer(chainB, 1_000_000n)
  const charged: Record<string, bigint> = { [A]: 0n, [B]: 0n }
  const payA = channelFetch(A, chainA, onA.key)
  const payB = channelFetch(B, chainB, onB.key)
  for (const [network, pay, n] of [
    [A, payA, 3],
    [B, payB, 2],
  ] as const) {
    for (let i = 0; i < n; i++) {
      const res = await echo(pay, `${network} ${i}`)
      expect(res.status).toBe(200)
      const r = decodePaymentResponseHeader(res.headers.get('payment-response')!)
      expect(r).toMatchObject({ success: true, network })
      if (i > 0) expect(r.transaction).toBe('')
      charged[network] += BigInt((r.extra as { chargedAmount: string }).chargedAmount)
    }
  }
  expect(charged).toEqual({ [A]: 3n * PRICE, [B]: 2n * PRICE })
  // deposits do not move the payees; each deposit landed on its own chain (the payer's USDC left there)
  expect(await usdcBalance(chainA.rpcUrl, chainA.payee.address)).toBe(before.a)
  expect(await usdcBalance(chainB.rpcUrl, chainB.payee.address)).toBe(before.b)
  expect(await usdcBalance(chainA.rpcUrl, onA.account.address)).toBe(1_000_000n - MIN_DEPOSIT)
  expect(await usdcBalance(chainB.rpcUrl, onB.account.address)).toBe(1_000_000n - MIN_DEPOSIT)

  // the console lists the channels of both networks
  const list = (await (
    await s.fetch('/admin/api/channels', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  ).json()) as any
  expect(list.count).toBe(2)
  expect(list.channels.map((c: any) => [c.network, c.charged]).sort()).toEqual([
    [A, String(charged[A])],
    [B, String(charged[B])],
  ])

  // shutdown: each network's engine claims and sweeps on its chain
  const result = await s.booted.channels!.stop()
  expect(result.failures).toBe(0)
  expect(result.sweeps.length).toBe(2)
  const stats = ((await (await s.fetch('/stats')).json()) as any).channels
  const delta: Record<string, bigint> = {
    [A]: (await usdcBalance(chainA.rpcUrl, chainA.payee.address)) - before.a,
    [B]: (await usdcBalance(chainB.rpcUrl, chainB.payee.address)) - before.b,
  }
  expect(delta).toEqual(charged)
  expect(stats.networks.map((f: any) => f.network)).toEqual([A, B])
  for (const f of stats.networks) {
    expect(f).toMatchObject({
      channels: 1,
      earned_atomic: String(charged[f.network]),
      claimed_atomic: String(charged[f.network]),
      swept_atomic: String(delta[f.network]),
      deposited_atomic: String(MIN_DEPOSIT),
      txs: { deposit: 1, claim: 1, sweep: 1 },
    })
    expect(BigInt(f.gas_wei)).toBeGreaterThan(0n)
  }
  // the top-level fields are the sum over networks
  expect(stats).toMatchObject({
    network: A,
    channels: 2,
    paid_calls: 5,
    earned_atomic: String(charged[A] + charged[B]),
    swept_atomic: String(delta[A] + delta[B]),
    deposited_atomic: String(2n * MIN_DEPOSIT),
    txs: { deposit: 2, claim: 2, sweep: 2 },
  })
  // the exact books are untouched (no exact call here)
  expect(await s.booted.storage.ledger.settledTotal()).toBe(0n)
  stopped = true
  await s.stop()
}, 60_000)

/** NETWORKS with A self-facilitated and B over the official facilitator on chain B (with or without channels). */
async function mixedServer(channels: boolean) {
  const authorizerKey = generatePrivateKey()
  const remote = startOfficialFacilitator(chainB.rpcUrl, chainB.settler.privateKey as Hex, {
    network: B,
    ...(channels ? { channels: { authorizerKey } } : {}),
  })
  const env = {
    NETWORKS: `${A},${B}`,
    RPC_URL_8453: chainA.rpcUrl,
    SETTLER_PRIVATE_KEYS_8453: chainA.settler.privateKey,
    FACILITATOR_URL_84532: remote.url,
    ASSET_84532: USDC_BASE,
    ASSET_NAME_84532: 'USD Coin',
    ASSET_VERSION_84532: '2',
    PAY_TO: chainA.payee.address,
    PAY_TO_84532: chainB.payee.address,
    CHANNEL_MIN_DEPOSIT_USD: '0.1',
  }
  const { config } = loadConfig(env)
  const facilitator = await networkFacilitators(config, createLogger('error'), { pollingIntervalMs: 20 })
  const t = await startServer({ entries: withEcho(), facilitator, env })
  const res = await t.post('/api/v1/test-echo', { code: 'hi' })
  const accepts = decodeB64Json(res.headers.get('payment-required')).accepts as any[]
  return { t, remote, authorizer: privateKeyToAccount(authorizerKey).address, accepts }
}

test('NETWORKS mixed: A self-facilitated, B over a remote listing batch-settlement; a voucher on B goes through B’s remote only', async () => {
  const { t, remote, authorizer, accepts } = await mixedServer(true)
  try {
    expect(accepts.map((r) => `${r.scheme} ${r.network}`)).toEqual([
      `exact ${A}`,
      `exact ${B}`,
      `batch-settlement ${A}`,
      `batch-settlement ${B}`,
    ])
    expect(accepts[2].extra.receiverAuthorizer).toBe(derived(chainA.settler.privateKey))
    expect(accepts[3]).toMatchObject({ payTo: chainB.payee.address, extra: { receiverAuthorizer: authorizer } })
    const payeeA = await usdcBalance(chainA.rpcUrl, chainA.payee.address)
    const payeeB = await usdcBalance(chainB.rpcUrl, chainB.payee.address)
    const onA = await channelPayer(chainA, 1_000_000n)
    const onB = await channelPayer(chainB, 1_000_000n)
    expect((await echo(channelFetch(A, chainA, onA.key), 'a', t)).status).toBe(200)
    const payB = channelFetch(B, chainB, onB.key)
    for (const code of ['b1', 'b2']) expect((await echo(payB, code, t)).status).toBe(200)
    expect(remote.settles).toEqual({ deposit: 1 }) // A's deposit went through our own settler
    const result = await t.booted.channels!.stop()
    expect(result.failures).toBe(0)
    expect(remote.settles).toEqual({ deposit: 1, claim: 1, settle: 1 })
    expect((await usdcBalance(chainA.rpcUrl, chainA.payee.address)) - payeeA).toBe(PRICE)
    expect((await usdcBalance(chainB.rpcUrl, chainB.payee.address)) - payeeB).toBe(2n * PRICE)
    const stats = ((await (await t.fetch('/stats')).json()) as any).channels
    expect(stats.networks.map((f: any) => [f.network, f.swept_atomic])).toEqual([
      [A, String(PRICE)],
      [B, String(2n * PRICE)],
    ])
  } finally {
    await t.stop()
    remote.stop()
  }
}, 60_000)

test('NETWORKS mixed: a remote network without batch-settlement gets exact only; the other network keeps its channels', async () => {
  const { t, remote, accepts } = await mixedServer(false)
  try {
    expect(accepts.map((r) => `${r.scheme} ${r.network}`)).toEqual([
      `exact ${A}`,
      `exact ${B}`,
      `batch-settlement ${A}`,
    ])
    const services = (await (await t.fetch('/services')).json()) as any
    expect(services.networks.map((n: any) => [n.network, n.schemes, Boolean(n.batch_settlement)])).toEqual([
      [A, ['exact', 'batch-settlement'], true],
      [B, ['exact'], false],
    ])
    const openapi = (await (await t.fetch('/openapi/full.json')).json()) as any
    const protocols = openapi.paths['/api/v1/test-echo'].post['x-payment-info'].protocols.filter((p: any) => p.x402) // x402's entries; MPP's { mpp } ones follow (docs/payments.md)
    expect(protocols.map((p: any) => `${p.x402.scheme} ${p.x402.network}`)).toEqual([
      `exact ${A}`,
      `batch-settlement ${A}`,
      `exact ${B}`,
    ])
    const none = (await (await t.fetch(`/discovery/resources?network=${B}&scheme=batch-settlement`)).json()) as any
    expect(none.items).toEqual([])
  } finally {
    await t.stop()
    remote.stop()
  }
})
