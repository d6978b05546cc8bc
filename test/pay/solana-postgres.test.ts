/**
 * Solana `exact` on a shared Postgres (DATABASE_URL), two instances: a payment paid through one is refused by the
 * other for another request (the ledger keys it by network, base58 payer and message hash, shared by every
 * instance) and collects its kept answer there for the identical request; the books agree on either instance.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { KeyPairSigner } from '@solana/kit'
import { SOLANA_MAINNET_CAIP2 } from '@x402/svm'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { type LocalPostgres, testPostgres } from '../support/postgres'
import { startServer, type TestServer } from '../support/server'
import { paymentRequiredOf, solanaEnv, solanaPayer, solanaPaymentHeader, usdcOf } from '../support/solana'

let chain: SolanaDevChain
let pg: LocalPostgres
let payer: KeyPairSigner
let a: TestServer
let b: TestServer
beforeAll(async () => {
  ;[chain, pg] = await Promise.all([startSolanaDevChain(), testPostgres()])
  payer = await solanaPayer(chain)
  const env = { ...solanaEnv(chain), DATABASE_URL: await pg.createDatabase('solana_exact') }
  a = await startServer({ env: { ...env, INSTANCE_ID: 'a' } })
  b = await startServer({ env: { ...env, INSTANCE_ID: 'b' } })
})
afterAll(async () => {
  await a?.stop()
  await b?.stop()
  await pg?.stop()
  await chain?.stop()
})

test('paid through one instance: refused by the other for another request, collected there for the same one', async () => {
  const before = await usdcOf(chain, chain.payee.usdcAccount)
  const body = { text: 'Shared ledger' }
  const required = paymentRequiredOf(await a.post('/api/v1/slugify', body))
  const entry = required.accepts.find((x) => x.network === SOLANA_MAINNET_CAIP2)!
  const header = await solanaPaymentHeader(chain, payer, required, entry)
  const paid = await a.post('/api/v1/slugify', body, { 'payment-signature': header })
  expect(paid.status).toBe(200)
  const kept = await paid.text()
  const other = await b.post('/api/v1/slugify', { text: 'another' }, { 'payment-signature': header })
  expect(other.status).toBe(402)
  expect(await other.json()).toMatchObject({ reason: 'authorization_already_used' })
  const again = await b.post('/api/v1/slugify', body, { 'payment-signature': header })
  expect(again.status).toBe(200)
  expect(await again.text()).toBe(kept)
  const delta = (await usdcOf(chain, chain.payee.usdcAccount)) - before
  expect(delta).toBe(BigInt(entry.amount))
  for (const s of [a, b]) {
    const stats = (await (await s.fetch('/stats')).json()) as {
      networks: Array<{ network: string; revenue_atomic: string }>
    }
    expect(BigInt(stats.networks.find((n) => n.network === SOLANA_MAINNET_CAIP2)!.revenue_atomic)).toBe(delta)
  }
}, 120_000)
