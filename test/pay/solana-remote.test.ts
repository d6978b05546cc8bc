/**
 * Solana `exact` through a remote facilitator (SOLANA_FACILITATOR_URL, issue #34 item 2): the official @x402/svm
 * facilitator served over HTTP here (x402 v2 /supported, /verify, /settle over the dev chain's RPC), the server booted
 * with the remote configuration, paid by the official client; books agree (payee USDC delta = /stats revenue for the
 * network = the ledger). A facilitator that does not list Solana: not offered, Base still served.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { KeyPairSigner } from '@solana/kit'
import { x402Facilitator } from '@x402/core/facilitator'
import type { PaymentRequired } from '@x402/core/types'
import { SOLANA_MAINNET_CAIP2, toFacilitatorSvmSigner } from '@x402/svm'
import { registerExactSvmScheme } from '@x402/svm/exact/facilitator'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { sqliteOf } from '../../runtime/db/open'
import { startApp, startServer, type TestServer } from '../support/server'
import { paymentRequiredOf, solanaFetch, solanaPayer, solanaPaymentHeader, usdcOf } from '../support/solana'

let chain: SolanaDevChain
let payer: KeyPairSigner
let server: TestServer
let facilitator: ReturnType<typeof Bun.serve>
/** What the remote facilitator was asked (path per call). */
const calls: string[] = []
let payeeStart: bigint

/** The official facilitator over HTTP, as a hosted one serves it; `networks`: what its /supported lists. */
function serveFacilitator(chainUrl: string, signer: KeyPairSigner, listSolana = true) {
  const f = registerExactSvmScheme(new x402Facilitator(), {
    signer: toFacilitatorSvmSigner(signer, { defaultRpcUrl: chainUrl }),
    networks: SOLANA_MAINNET_CAIP2,
  })
  return Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      calls.push(path)
      if (req.method === 'GET' && path === '/supported') {
        const supported = f.getSupported()
        return Response.json(listSolana ? supported : { ...supported, kinds: [] })
      }
      if (req.method !== 'POST') return new Response('not found', { status: 404 })
      const body = (await req.json()) as { paymentPayload: any; paymentRequirements: any }
      if (path === '/verify') return Response.json(await f.verify(body.paymentPayload, body.paymentRequirements))
      if (path === '/settle') return Response.json(await f.settle(body.paymentPayload, body.paymentRequirements))
      return new Response('not found', { status: 404 })
    },
  })
}

const remoteEnv = (url: string) => ({
  SOLANA_RPC_URL: chain.url,
  SOLANA_FACILITATOR_URL: url,
  SOLANA_PAY_TO: chain.payee.address,
})

beforeAll(async () => {
  chain = await startSolanaDevChain()
  payer = await solanaPayer(chain)
  facilitator = serveFacilitator(chain.url, chain.feePayer)
  payeeStart = await usdcOf(chain, chain.payee.usdcAccount)
  server = await startServer({ env: remoteEnv(`http://127.0.0.1:${facilitator.port}`) })
})
afterAll(async () => {
  await server?.stop()
  facilitator?.stop(true)
  await chain?.stop()
})

const solanaEntry = (required: PaymentRequired) => required.accepts.find((a) => a.network === SOLANA_MAINNET_CAIP2)!

const solanaRows = () =>
  sqliteOf(server.booted)
    .db.query(`SELECT amount, state, tx_hash, payer FROM payments WHERE network = ?`)
    .all(SOLANA_MAINNET_CAIP2) as Array<{ amount: string; state: string; tx_hash: string | null; payer: string }>

/** Payee USDC delta since the start = /stats revenue for the Solana network = the ledger's settled Solana rows. */
async function booksAgree(): Promise<bigint> {
  const delta = (await usdcOf(chain, chain.payee.usdcAccount)) - payeeStart
  const ledger = solanaRows()
    .filter((r) => r.state === 'settled')
    .reduce((n, r) => n + BigInt(r.amount), 0n)
  const stats = (await (await server.fetch('/stats')).json()) as {
    networks: Array<{ network: string; revenue_atomic: string }>
  }
  const revenue = BigInt(stats.networks.find((n) => n.network === SOLANA_MAINNET_CAIP2)?.revenue_atomic ?? '0')
  expect(ledger).toBe(delta)
  expect(revenue).toBe(delta)
  return delta
}

describe('Solana exact through a remote facilitator', () => {
  test("boot read its /supported: the 402's Solana entry names the facilitator's fee payer", async () => {
    expect(calls).toContain('/supported')
    const res = await server.post('/api/v1/slugify', { text: 'a' })
    expect(res.status).toBe(402)
    const required = paymentRequiredOf(res)
    expect(required.accepts[0]).toMatchObject({ scheme: 'exact', network: 'eip155:8453' })
    expect(solanaEntry(required)).toMatchObject({
      scheme: 'exact',
      payTo: chain.payee.address,
      extra: { feePayer: chain.feePayer.address },
    })
  })

  test('the official client pays: verified and settled by the remote, tx recorded, books agree', async () => {
    const before = await usdcOf(chain, chain.payee.usdcAccount)
    calls.length = 0
    const res = await solanaFetch(chain, payer)(`${server.url}/api/v1/slugify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Hello remote Solana' }),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ slug: 'hello-remote-solana' })
    expect(calls).toEqual(['/verify', '/settle'])
    const receipt = JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, network: SOLANA_MAINNET_CAIP2, payer: chain.payer.address })
    // The transaction id is the remote fee payer's signature, known from its answer, and landed on chain.
    expect(chain.ledger.status(receipt.transaction)).toMatchObject({ err: null })
    const rows = solanaRows().filter((r) => r.state === 'settled')
    expect(rows.length).toBe(1)
    expect(rows[0].tx_hash).toBe(receipt.transaction)
    const delta = (await usdcOf(chain, chain.payee.usdcAccount)) - before
    expect(delta).toBe(BigInt(rows[0].amount))
    expect(delta).toBeGreaterThan(0n)
    await booksAgree()
  })

  test('a replayed payment for another request is refused; nothing moves twice', async () => {
    const body = { text: 'replay through remote' }
    const required = paymentRequiredOf(await server.post('/api/v1/slugify', body))
    const header = await solanaPaymentHeader(chain, payer, required, solanaEntry(required))
    const first = await server.post('/api/v1/slugify', body, { 'payment-signature': header })
    expect(first.status).toBe(200)
    const moved = await usdcOf(chain, chain.payee.usdcAccount)
    calls.length = 0
    const other = await server.post('/api/v1/slugify', { text: 'something else' }, { 'payment-signature': header })
    expect(other.status).toBe(402)
    expect(await other.json()).toMatchObject({ reason: 'authorization_already_used' })
    // Refused by the ledger (message hash) before the remote was asked anything.
    expect(calls).toEqual([])
    expect(await usdcOf(chain, chain.payee.usdcAccount)).toBe(moved)
    await booksAgree()
  })
})

test('a facilitator that does not list Solana: not offered, with the reason; Base still served', async () => {
  const bare = serveFacilitator(chain.url, chain.feePayer, false)
  const s = await startApp({ env: remoteEnv(`http://127.0.0.1:${bare.port}/?token=secret-facilitator-key`) })
  try {
    const res = await s.post('/api/v1/slugify', { text: 'a' })
    expect(res.status).toBe(402)
    const networks = paymentRequiredOf(res).accepts.map((a) => a.network)
    expect(networks[0]).toBe('eip155:8453')
    expect(networks).not.toContain(SOLANA_MAINNET_CAIP2)
    expect((await s.fetch('/health')).status).toBe(200)
    const logs = s.logs.join('\n')
    expect(logs).toContain('Solana payments are NOT offered')
    expect(logs).toContain(`does not list x402 v2 \`exact\` on ${SOLANA_MAINNET_CAIP2} in /supported`)
    expect(logs).not.toContain('secret-facilitator-key')
  } finally {
    await s.stop()
    bare.stop(true)
  }
})
