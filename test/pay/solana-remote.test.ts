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
import { loadConfig } from '../../runtime/config'
import { sqliteOf } from '../../runtime/db/open'
import { remoteSvmBackend, remoteSvmFacilitator } from '../../runtime/pay/schemes/svm-exact/remote-backend'
import { reconcileSvm } from '../../runtime/pay/schemes/svm-exact/reconcile'
import { SOLANA_PAYMENT_LIFETIME_S } from '../../runtime/pay/schemes/svm-exact/scheme'
import { startApp, startServer, type TestServer } from '../support/server'
import { paymentRequiredOf, solanaFetch, solanaPayer, solanaPaymentHeader, usdcOf } from '../support/solana'

let chain: SolanaDevChain
let payer: KeyPairSigner
let server: TestServer
let facilitator: ReturnType<typeof Bun.serve>
/** What the remote facilitator was asked (path per call). */
const calls: string[] = []
/**
 * How the remote answers /settle: `ok`; `lost`: it settles, then its answer is lost (a 502, as a proxy gives when
 * the facilitator died); `dropped`: it dies before sending anything (502, nothing on chain).
 */
let settleMode: 'ok' | 'lost' | 'dropped' = 'ok'
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
      if (path === '/settle') {
        if (settleMode === 'dropped') return new Response('bad gateway', { status: 502 })
        const settled = await f.settle(body.paymentPayload, body.paymentRequirements)
        if (settleMode === 'lost') return new Response('bad gateway', { status: 502 })
        return Response.json(settled)
      }
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
    .db.query(`SELECT id, amount, state, tx_hash, payer FROM payments WHERE network = ? ORDER BY id`)
    .all(SOLANA_MAINNET_CAIP2) as Array<{
    id: number
    amount: string
    state: string
    tx_hash: string | null
    payer: string
  }>

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

describe("the remote's answer to /settle lost: decided from the chain, never charged twice", () => {
  /** Reconciliation as the server's rounds run it, with a remote backend over the same chain. */
  const reconcile = () =>
    reconcileSvm(
      server.booted.storage.ledger,
      remoteSvmBackend(
        SOLANA_MAINNET_CAIP2,
        chain.url,
        remoteSvmFacilitator(`http://127.0.0.1:${facilitator.port}`),
        chain.feePayer.address,
      ),
      server.booted.log,
      0,
    )

  async function payLosingTheAnswer(text: string, mode: 'lost' | 'dropped') {
    const body = { text }
    const required = paymentRequiredOf(await server.post('/api/v1/slugify', body))
    const header = await solanaPaymentHeader(chain, payer, required, solanaEntry(required))
    settleMode = mode
    try {
      const res = await server.post('/api/v1/slugify', body, { 'payment-signature': header })
      // Unknown outcome: no result served, the payment pending, its id unknown.
      expect(res.status).not.toBe(200)
    } finally {
      settleMode = 'ok'
    }
    const row = solanaRows().at(-1)!
    expect(row).toMatchObject({ state: 'pending', tx_hash: null })
    return { body, header, row }
  }

  test('it landed: reconciliation finds it on chain by its message and settles it once; the replay collects', async () => {
    const before = await usdcOf(chain, chain.payee.usdcAccount)
    const { body, header, row } = await payLosingTheAnswer('answer lost', 'lost')
    const moved = (await usdcOf(chain, chain.payee.usdcAccount)) - before
    expect(moved).toBe(BigInt(row.amount))
    await reconcile()
    const settled = solanaRows().find((r) => r.id === row.id)!
    expect(settled.state).toBe('settled')
    expect(chain.ledger.status(settled.tx_hash!)).toMatchObject({ err: null })
    await booksAgree()
    // The same payment for the identical request collects its kept result; nothing is sent again.
    calls.length = 0
    const again = await server.post('/api/v1/slugify', body, { 'payment-signature': header })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ slug: 'answer-lost' })
    expect(calls).toEqual([])
    expect((await usdcOf(chain, chain.payee.usdcAccount)) - before).toBe(moved)
    await reconcile()
    await booksAgree()
  })

  test('it never left: pending while it could still land, failed once expired; nothing moved', async () => {
    const before = await usdcOf(chain, chain.payee.usdcAccount)
    const { row } = await payLosingTheAnswer('answer dropped', 'dropped')
    await reconcile()
    expect(solanaRows().find((r) => r.id === row.id)!.state).toBe('pending')
    // Its blockhash's lifetime past (the row reserved long enough ago), the chain's answer is final.
    const past = Date.now() - (SOLANA_PAYMENT_LIFETIME_S + 60) * 1000
    sqliteOf(server.booted).db.query('UPDATE payments SET created_at = ? WHERE id = ?').run(past, row.id)
    await reconcile()
    expect(solanaRows().find((r) => r.id === row.id)!.state).toBe('failed')
    expect(await usdcOf(chain, chain.payee.usdcAccount)).toBe(before)
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

test('the remote configuration: SOLANA_FACILITATOR_URL needs SOLANA_RPC_URL and excludes SOLANA_FEE_PAYER_KEY', () => {
  const problems = (env: Record<string, string>) => loadConfig(env).problems.filter((p) => p.includes('SOLANA'))
  const payTo = chain.payee.address
  const url = 'https://facilitator.example'
  expect(problems({ SOLANA_RPC_URL: chain.url, SOLANA_FACILITATOR_URL: url, SOLANA_PAY_TO: payTo })).toEqual([])
  expect(problems({ SOLANA_FACILITATOR_URL: url, SOLANA_PAY_TO: payTo }).join('\n')).toContain('need SOLANA_RPC_URL')
  expect(
    problems({
      SOLANA_RPC_URL: chain.url,
      SOLANA_FACILITATOR_URL: url,
      SOLANA_PAY_TO: payTo,
      SOLANA_FEE_PAYER_KEY: chain.feePayerSecretBase58,
    }).join('\n'),
  ).toContain('SOLANA_FACILITATOR_URL and SOLANA_FEE_PAYER_KEY exclude each other')
  expect(
    problems({ SOLANA_RPC_URL: chain.url, SOLANA_FACILITATOR_URL: 'ftp://x', SOLANA_PAY_TO: payTo }).join('\n'),
  ).toContain('SOLANA_FACILITATOR_URL must be an http(s) URL')
  expect(problems({ SOLANA_RPC_URL: chain.url, SOLANA_PAY_TO: payTo }).join('\n')).toContain(
    'or SOLANA_FACILITATOR_URL',
  )
})
