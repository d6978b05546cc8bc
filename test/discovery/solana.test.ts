/**
 * Solana `exact` in the published documents, once boot offers it: /services and the manifest name it (network,
 * USDC, payee, fee payer, the client), the Bazaar list has its entry after the EVM ones in every resource's
 * `accepts` and filters by its network and payee, OpenAPI lists it in x-payment-info, and llms.txt says how an
 * agent on Solana pays. A server that does not offer Solana publishes none of it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SOLANA_MAINNET_CAIP2 } from '@x402/svm'
import { SOLANA_USDC_MINT } from '../../runtime/chain/solana/accounts'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { startApp, type TestServer } from '../support/server'
import { solanaEnv } from '../support/solana'

let chain: SolanaDevChain
let s: TestServer
let plain: TestServer
beforeAll(async () => {
  chain = await startSolanaDevChain()
  s = await startApp({ env: solanaEnv(chain) })
  plain = await startApp()
})
afterAll(async () => {
  await s?.stop()
  await plain?.stop()
  await chain?.stop()
})

const get = async (server: TestServer, path: string) => (await server.fetch(path)).json() as Promise<any>
const terms = () => ({
  scheme: 'exact',
  network: SOLANA_MAINNET_CAIP2,
  asset: SOLANA_USDC_MINT,
  payTo: chain.payee.address,
  feePayer: chain.feePayer.address,
})

describe('Solana offered', () => {
  test('/services and the manifest name it', async () => {
    expect((await get(s, '/services')).solana).toMatchObject(terms())
    expect((await get(s, '/.well-known/x402')).solana).toMatchObject(terms())
  })

  test('the Bazaar list: its entry after the EVM ones, for every tier; filtered by its network and payee', async () => {
    const doc = await get(s, '/discovery/resources?limit=100')
    for (const item of doc.items) {
      const networks = item.accepts.map((a: { network: string }) => a.network)
      expect(networks[0]).toBe('eip155:8453')
      expect(networks.filter((n: string) => n === SOLANA_MAINNET_CAIP2).length).toBe(
        networks.filter((n: string) => n === 'eip155:8453').length,
      )
    }
    const slugify = doc.items.find((i: { resource: string }) => i.resource.endsWith('/api/v1/slugify'))
    expect(slugify.accepts.at(-1)).toEqual({
      scheme: 'exact',
      network: SOLANA_MAINNET_CAIP2,
      amount: slugify.accepts[0].amount,
      asset: SOLANA_USDC_MINT,
      payTo: chain.payee.address,
      maxTimeoutSeconds: slugify.accepts[0].maxTimeoutSeconds,
      extra: { feePayer: chain.feePayer.address },
    })
    const byNetwork = await get(s, `/discovery/resources?network=${SOLANA_MAINNET_CAIP2}`)
    expect(byNetwork.pagination.total).toBe(doc.pagination.total)
    expect((await get(s, `/discovery/resources?payTo=${chain.payee.address}`)).pagination.total).toBe(
      doc.pagination.total,
    )
    // base58 is case-sensitive
    expect((await get(s, `/discovery/resources?payTo=${chain.payee.address.toLowerCase()}`)).pagination.total).toBe(0)
  })

  test('OpenAPI lists it in x-payment-info and its guidance; llms.txt says how an agent on Solana pays', async () => {
    const full = JSON.stringify(await get(s, '/openapi/full.json'))
    expect(full).toContain(`"network":"${SOLANA_MAINNET_CAIP2}"`)
    expect(full).toContain('ExactSvmScheme')
    const llms = await (await s.fetch('/llms.txt')).text()
    expect(llms).toContain('Paying from Solana')
    expect(llms).toContain(chain.feePayer.address)
    expect(llms).toContain('@x402/svm/exact/client')
  })
})

test('a server without Solana publishes none of it', async () => {
  expect((await get(plain, '/services')).solana).toBeUndefined()
  expect((await get(plain, '/.well-known/x402')).solana).toBeUndefined()
  expect(JSON.stringify(await get(plain, '/discovery/resources?limit=100'))).not.toContain('solana:')
  expect((await get(plain, `/discovery/resources?network=${SOLANA_MAINNET_CAIP2}`)).pagination.total).toBe(0)
  expect(JSON.stringify(await get(plain, '/openapi/full.json'))).not.toContain('solana:')
  expect(await (await plain.fetch('/llms.txt')).text()).not.toContain('Solana')
})
