/**
 * Payment channels published where agents and indexers look (issue #26): where this server offers `batch-settlement`
 * (its own facilitator on the dev chain), the Bazaar list (/discovery/resources, /discovery/search) lists each tier's
 * `exact` entry then its `batch-settlement` one, the same as the 402's; /.well-known/x402 names the schemes and the
 * channel terms; both OpenAPI documents' x-payment-info list the `batch-settlement` protocol with minDeposit and
 * withdrawDelay. Without channels (test/discovery/surfaces.test.ts) every surface stays `exact` only.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { withEcho } from '../support/extra-service'
import { startServerOnChain } from '../support/on-chain'
import { decodeB64Json, type TestServer } from '../support/server'

const MIN_DEPOSIT = '250000' // CHANNEL_MIN_DEPOSIT_USD 0.25
const DELAY = 86_400

let chain: DevChain
let s: TestServer
beforeAll(async () => {
  chain = await startDevChain()
  s = await startServerOnChain(chain, { entries: withEcho(), env: { CHANNEL_MIN_DEPOSIT_USD: '0.25' } })
})
afterAll(async () => {
  await s?.stop()
  await chain?.stop()
})

const get = async (path: string) => {
  const res = await s.fetch(path)
  expect(res.status).toBe(200)
  return (await res.json()) as any
}

test('the Bazaar list and search carry the batch-settlement entry of every tier, equal to the 402 one', async () => {
  const required = decodeB64Json((await s.post('/api/v1/test-echo', { code: 'x' })).headers.get('payment-required'))
  const list = await get('/discovery/resources?limit=100')
  const items = [...list.items, ...(await get('/discovery/resources?limit=100&offset=100')).items]
  const echo = items.find((i: any) => i.resource.endsWith('/api/v1/test-echo'))
  expect(echo.accepts).toEqual(required.accepts)
  expect(echo.accepts[1]).toMatchObject({
    scheme: 'batch-settlement',
    extra: { minDeposit: MIN_DEPOSIT, withdrawDelay: DELAY },
  })
  // a tiered service: per tier, exact then batch-settlement, at the same amount
  const tiered = items.find((i: any) => i.resource.endsWith('/api/v1/explain-code'))
  const schemes = tiered.accepts.map((a: any) => a.scheme)
  expect(schemes).toEqual(['exact', 'batch-settlement', 'exact', 'batch-settlement', 'exact', 'batch-settlement'])
  for (let i = 0; i < 6; i += 2) expect(tiered.accepts[i + 1].amount).toBe(tiered.accepts[i].amount)
  expect(tiered.metadata.tiers).toContain('exact, then batch-settlement')
  // the scheme filter knows the second scheme
  const bs = await get('/discovery/resources?scheme=batch-settlement&limit=1')
  expect(bs.pagination.total).toBe(list.pagination.total)
  expect((await get('/discovery/resources?scheme=upto')).pagination.total).toBe(0)
  const found = await get('/discovery/search?query=echo&scheme=batch-settlement')
  expect(found.resources.find((r: any) => r.resource.endsWith('/api/v1/test-echo')).accepts).toEqual(required.accepts)
})

test('/.well-known/x402 names the schemes and the channel terms, as /services does', async () => {
  const wk = await get('/.well-known/x402')
  const services = await get('/services')
  expect(wk.schemes).toEqual(['exact', 'batch-settlement'])
  expect(wk.batch_settlement).toEqual(services.batch_settlement)
  expect(wk.batch_settlement).toMatchObject({ min_deposit: MIN_DEPOSIT, withdraw_delay_s: DELAY })
})

test('both OpenAPI documents list the batch-settlement protocol with minDeposit and withdrawDelay', async () => {
  const services = await get('/services')
  const expected = [
    { x402: { network: services.network, asset: services.asset, scheme: 'exact' } },
    {
      x402: {
        network: services.network,
        asset: services.asset,
        scheme: 'batch-settlement',
        minDeposit: MIN_DEPOSIT,
        withdrawDelay: DELAY,
        receiverAuthorizer: services.batch_settlement.receiver_authorizer,
      },
    },
    // MPP beside x402 on the same 402 (docs/payments.md)
    { mpp: { method: 'evm', intent: 'charge', currency: services.asset, network: 'eip155:8453', chainId: 8453 } },
  ]
  const agent = await get('/openapi.json')
  expect(agent.info['x-guidance']).toContain(`also offers scheme batch-settlement`)
  expect(agent.info['x-guidance']).toContain(`at least ${MIN_DEPOSIT} atomic units`)
  expect(agent.paths['/api/v1/{slug}'].post['x-payment-info'].protocols).toEqual(expected)
  const full = await get('/openapi/full.json')
  for (const slug of ['test-echo', 'explain-code'])
    expect(full.paths[`/api/v1/${slug}`].post['x-payment-info'].protocols).toEqual(expected)
})
