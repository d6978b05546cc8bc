/**
 * x402 `exact` on Solana (issue #34): the official @x402/svm client pays services over HTTP through the embedded
 * Solana dev chain, and the books agree (payee USDC delta = /stats revenue for the network = the ledger).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { KeyPairSigner } from '@solana/kit'
import { SOLANA_MAINNET_CAIP2 } from '@x402/svm'
import { SOLANA_USDC_MINT } from '../../runtime/chain/solana/accounts'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { sqliteOf } from '../../runtime/db/open'
import { startServer, type TestServer } from '../support/server'
import { paymentRequiredOf, solanaEnv, solanaFetch, solanaPayer, usdcOf } from '../support/solana'

let chain: SolanaDevChain
let payer: KeyPairSigner
let server: TestServer

beforeAll(async () => {
  chain = await startSolanaDevChain()
  payer = await solanaPayer(chain)
  server = await startServer({ env: solanaEnv(chain) })
})
afterAll(async () => {
  await server?.stop()
  await chain?.stop()
})

const settledOnSolana = () =>
  sqliteOf(server.booted)
    .db.query(`SELECT amount, state, tx_hash, payer FROM payments WHERE network = ?`)
    .all(SOLANA_MAINNET_CAIP2) as Array<{ amount: string; state: string; tx_hash: string; payer: string }>

describe('Solana exact over HTTP', () => {
  test('the 402 lists the Solana entry after the EVM ones: Base exact stays first', async () => {
    const res = await server.post('/api/v1/slugify', { text: 'a' })
    expect(res.status).toBe(402)
    const required = paymentRequiredOf(res)
    expect(required.accepts[0]).toMatchObject({ scheme: 'exact', network: 'eip155:8453' })
    const sol = required.accepts.at(-1)!
    expect(sol).toEqual({
      scheme: 'exact',
      network: SOLANA_MAINNET_CAIP2,
      amount: required.accepts[0].amount,
      asset: SOLANA_USDC_MINT,
      payTo: chain.payee.address,
      maxTimeoutSeconds: required.accepts[0].maxTimeoutSeconds,
      extra: { feePayer: chain.feePayer.address },
    })
  })

  test('the official client pays: 200, signed receipt, payee delta = /stats revenue = ledger', async () => {
    const before = await usdcOf(chain, chain.payee.usdcAccount)
    const pay = solanaFetch(chain, payer)
    const res = await pay(`${server.url}/api/v1/slugify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Hello Solana' }),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ slug: 'hello-solana' })
    const receipt = JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, network: SOLANA_MAINNET_CAIP2, payer: chain.payer.address })
    expect(receipt.extensions).toBeDefined()
    const delta = (await usdcOf(chain, chain.payee.usdcAccount)) - before
    const rows = settledOnSolana().filter((r) => r.state === 'settled')
    expect(rows.length).toBe(1)
    expect(rows[0].tx_hash).toBe(receipt.transaction)
    expect(BigInt(rows[0].amount)).toBe(delta)
    expect(delta).toBeGreaterThan(0n)
    const today = (await (await server.fetch('/stats/today')).json()) as any
    console.log(JSON.stringify(today).slice(0, 1500))
  })
})
