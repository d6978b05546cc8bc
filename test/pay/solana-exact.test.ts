/**
 * x402 `exact` on Solana (issue #34): the official @x402/svm client pays services over HTTP through the embedded
 * Solana dev chain, and the books agree (payee USDC delta = /stats revenue for the network = the ledger).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Address, KeyPairSigner } from '@solana/kit'
import type { PaymentRequired } from '@x402/core/types'
import { SOLANA_DEVNET_CAIP2, SOLANA_MAINNET_CAIP2 } from '@x402/svm'
import { installUsdcAccount, installUsdcMint, SOLANA_USDC_MINT } from '../../runtime/chain/solana/accounts'
import { newSolanaKey } from '../../runtime/chain/solana/keys'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { sqliteOf } from '../../runtime/db/open'
import { withEcho } from '../support/extra-service'
import { startServer, type TestServer } from '../support/server'
import { mcpClient } from '../mcp/client'
import {
  paymentRequiredOf,
  solanaClient,
  solanaEnv,
  solanaFetch,
  solanaPayer,
  solanaPaymentHeader,
  usdcOf,
} from '../support/solana'

let chain: SolanaDevChain
let payer: KeyPairSigner
let server: TestServer

/** A 6-decimal token that is not USDC, which the payer also holds. */
let otherMint: Address
const ADMIN_TOKEN = 'solana-console-token-0123456789'
let payeeStart: bigint

beforeAll(async () => {
  chain = await startSolanaDevChain()
  payer = await solanaPayer(chain)
  otherMint = (await newSolanaKey()).signer.address
  installUsdcMint(chain.ledger.svm, chain.payer.address, 1_000_000_000n, otherMint)
  await installUsdcAccount(chain.ledger.svm, chain.payer.address, 1_000_000_000n, otherMint)
  await installUsdcAccount(chain.ledger.svm, chain.payee.address, 0n, otherMint)
  payeeStart = await usdcOf(chain, chain.payee.usdcAccount)
  server = await startServer({ env: { ...solanaEnv(chain), ADMIN_TOKEN }, entries: withEcho() })
})
afterAll(async () => {
  await server?.stop()
  await chain?.stop()
})

const solanaEntry = (required: PaymentRequired) => required.accepts.find((a) => a.network === SOLANA_MAINNET_CAIP2)!

/** Payee USDC delta since the start = /stats revenue for the Solana network = the ledger's settled Solana rows. */
async function booksAgree(): Promise<bigint> {
  const delta = (await usdcOf(chain, chain.payee.usdcAccount)) - payeeStart
  const ledger = settledOnSolana()
    .filter((r) => r.state === 'settled')
    .reduce((n, r) => n + BigInt(r.amount), 0n)
  const stats = (await (await server.fetch('/stats')).json()) as {
    networks: Array<{ network: string; revenue_atomic: string }>
  }
  const revenue = BigInt(stats.networks.find((n) => n.network === SOLANA_MAINNET_CAIP2)?.revenue_atomic ?? '0')
  // The operator console's money, per network.
  const overview = (await (
    await server.fetch('/admin/api/overview', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  ).json()) as { money: { networks: Array<{ network: string; revenue_atomic: string }> } }
  const consoleRevenue = BigInt(
    overview.money.networks.find((n) => n.network === SOLANA_MAINNET_CAIP2)?.revenue_atomic ?? '0',
  )
  expect(ledger).toBe(delta)
  expect(revenue).toBe(delta)
  expect(consoleRevenue).toBe(delta)
  return delta
}

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
    // The receipt is signed, and says what was bought and how it was paid.
    const verified = (await (
      await server.post('/receipts/verify', { payment_response: res.headers.get('payment-response') })
    ).json()) as { valid: boolean; payload: Record<string, unknown> }
    expect(verified).toMatchObject({
      valid: true,
      payload: { service: 'slugify', network: SOLANA_MAINNET_CAIP2, payer: chain.payer.address },
    })
    const delta = (await usdcOf(chain, chain.payee.usdcAccount)) - before
    const rows = settledOnSolana().filter((r) => r.state === 'settled')
    expect(rows.length).toBe(1)
    expect(rows[0].tx_hash).toBe(receipt.transaction)
    expect(rows[0].payer).toBe(chain.payer.address) // base58, case kept
    expect(BigInt(rows[0].amount)).toBe(delta)
    expect(delta).toBeGreaterThan(0n)
    await booksAgree()
  })
})

describe('Solana exact over MCP', () => {
  test('the PaymentRequired lists the Solana accept; the official client pays a tool call, books agree', async () => {
    const c = await mcpClient(server.url, '?tools=all')
    try {
      const args = { text: 'Paid on Solana, over MCP' }
      const unpaid = await c.callTool({ name: 'slugify', arguments: args })
      expect(unpaid.isError).toBe(true)
      const required = unpaid.structuredContent as unknown as PaymentRequired
      expect(required.accepts[0]).toMatchObject({ network: 'eip155:8453' })
      expect(solanaEntry(required)).toMatchObject({ payTo: chain.payee.address, asset: SOLANA_USDC_MINT })
      const before = await usdcOf(chain, chain.payee.usdcAccount)
      const payment = await solanaClient(chain, payer).createPaymentPayload(required)
      expect(payment.accepted.network).toBe(SOLANA_MAINNET_CAIP2)
      const r = await c.callTool({ name: 'slugify', arguments: args, _meta: { 'x402/payment': payment } })
      expect(r.isError).toBeFalsy()
      expect(r.structuredContent).toMatchObject({ slug: 'paid-on-solana-over-mcp' })
      const receipt = r._meta?.['x402/payment-response'] as Record<string, unknown>
      expect(receipt).toMatchObject({ success: true, network: SOLANA_MAINNET_CAIP2, payer: chain.payer.address })
      expect((await usdcOf(chain, chain.payee.usdcAccount)) - before).toBe(BigInt(solanaEntry(required).amount))
      await booksAgree()
    } finally {
      await c.close()
    }
  })
})

describe('Solana exact refusals: nothing moves', () => {
  test('a replayed payment: another request is refused, the identical one collects its kept answer (no second charge)', async () => {
    const body = { text: 'replay me' }
    const required = paymentRequiredOf(await server.post('/api/v1/slugify', body))
    const header = await solanaPaymentHeader(chain, payer, required, solanaEntry(required))
    const first = await server.post('/api/v1/slugify', body, { 'payment-signature': header })
    expect(first.status).toBe(200)
    const kept = await first.text()
    const moved = await usdcOf(chain, chain.payee.usdcAccount)
    const again = await server.post('/api/v1/slugify', body, { 'payment-signature': header })
    expect(again.status).toBe(200)
    expect(await again.text()).toBe(kept)
    expect(again.headers.get('payment-response')).toBe(first.headers.get('payment-response'))
    const other = await server.post('/api/v1/slugify', { text: 'something else' }, { 'payment-signature': header })
    expect(other.status).toBe(402)
    expect(await other.json()).toMatchObject({ reason: 'authorization_already_used' })
    expect(await usdcOf(chain, chain.payee.usdcAccount)).toBe(moved)
    await booksAgree()
  })

  test('forged, expired-blockhash, wrong-mint, wrong-payee and other-network payments are refused', async () => {
    const body = { text: 'refused' }
    const required = paymentRequiredOf(await server.post('/api/v1/slugify', body))
    const ours = solanaEntry(required)
    const before = { payee: await usdcOf(chain, chain.payee.usdcAccount), slot: chain.ledger.slot() }
    const send = async (header: string) => {
      const res = await server.post('/api/v1/slugify', body, { 'payment-signature': header })
      expect(res.status).toBe(402)
      return ((await res.json()) as { reason: string }).reason
    }
    const edit = (header: string, f: (p: any) => void) => {
      const p = JSON.parse(Buffer.from(header, 'base64').toString())
      f(p)
      return Buffer.from(JSON.stringify(p)).toString('base64')
    }
    // Forged: the payer's signature altered (the fee payer's slot is the first, then the payer's).
    const forged = edit(await solanaPaymentHeader(chain, payer, required, ours), (p) => {
      const tx = Buffer.from(p.payload.transaction, 'base64')
      tx[1 + 64 + 7] ^= 0xff
      p.payload.transaction = tx.toString('base64')
    })
    expect(await send(forged)).toMatch(/^invalid_exact_svm/)
    // Signed on a blockhash that has since expired.
    const stale = await solanaPaymentHeader(chain, payer, required, ours)
    chain.ledger.svm.expireBlockhash()
    expect(await send(stale)).toBe('invalid_exact_svm_transaction_simulation_failed')
    // Another token: refused as not matching the entry, and when it claims to match, by verification.
    const inOther = await solanaPaymentHeader(chain, payer, required, { ...ours, asset: otherMint })
    expect(await send(inOther)).toBe('no_matching_requirements')
    expect(await send(edit(inOther, (p) => (p.accepted.asset = ours.asset)))).toBe(
      'invalid_exact_svm_payload_mint_mismatch',
    )
    // Another payee, the same two ways.
    const stranger = (await newSolanaKey()).signer.address
    const elsewhere = await solanaPaymentHeader(chain, payer, required, { ...ours, payTo: stranger })
    expect(await send(elsewhere)).toBe('no_matching_requirements')
    expect(await send(edit(elsewhere, (p) => (p.accepted.payTo = ours.payTo)))).toBe(
      'invalid_exact_svm_payload_recipient_mismatch',
    )
    // Another network (devnet) than the one offered.
    const good = await solanaPaymentHeader(chain, payer, required, ours)
    expect(await send(edit(good, (p) => (p.accepted.network = SOLANA_DEVNET_CAIP2)))).toBe('invalid_network')
    // Not a transaction at all.
    expect(await send(edit(good, (p) => (p.payload.transaction = 'AAAA')))).toBe('invalid_payload')
    expect(await usdcOf(chain, chain.payee.usdcAccount)).toBe(before.payee)
    expect(chain.ledger.slot()).toBe(before.slot)
    // The honest payment still pays after all that.
    expect((await server.post('/api/v1/slugify', body, { 'payment-signature': good })).status).toBe(200)
    await booksAgree()
  })

  test('two concurrent payments of a payer whose USDC covers one: one runs and is paid, the other is refused before its handler', async () => {
    const poor = await newSolanaKey()
    await installUsdcAccount(chain.ledger.svm, poor.signer.address, 1_000n)
    const required = paymentRequiredOf(await server.post('/api/v1/slugify', { text: 'one' }))
    const entry = solanaEntry(required)
    expect(entry.amount).toBe('1000')
    const headers = await Promise.all(
      ['one', 'two'].map(
        async (text) => [text, await solanaPaymentHeader(chain, poor.signer, required, entry)] as const,
      ),
    )
    const before = await usdcOf(chain, chain.payee.usdcAccount)
    const answers = await Promise.all(
      headers.map(async ([text, header]) => {
        const res = await server.post('/api/v1/slugify', { text }, { 'payment-signature': header })
        return { status: res.status, body: (await res.json()) as { reason?: string } }
      }),
    )
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses[0]).toBe(200)
    expect([402, 429]).toContain(statuses[1])
    const refusedOne = answers.find((a) => a.status !== 200)!
    if (refusedOne.status === 402) expect(refusedOne.body.reason).toBe('insufficient_balance')
    expect((await usdcOf(chain, chain.payee.usdcAccount)) - before).toBe(1_000n)
    await booksAgree()
  })

  test('a failed handler is never settled: the payment is let go, the payee gets nothing', async () => {
    const body = { code: 'crash' }
    const required = paymentRequiredOf(await server.post('/api/v1/test-echo', body))
    const header = await solanaPaymentHeader(chain, payer, required, solanaEntry(required))
    const before = await usdcOf(chain, chain.payee.usdcAccount)
    const res = await server.post('/api/v1/test-echo', body, { 'payment-signature': header })
    expect(res.status).toBe(500)
    expect(res.headers.get('payment-response')).toBeNull()
    expect(await usdcOf(chain, chain.payee.usdcAccount)).toBe(before)
    await booksAgree()
  })
})
