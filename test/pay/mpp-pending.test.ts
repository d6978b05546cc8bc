/**
 * MPP's money edges on the dev chain (anvil, Circle's USDC), with mppx's own client signing the credentials: a
 * settlement left pending (an RPC proxy holds the transfer and its receipt past the settler's wait) keeps the result
 * and answers a problem with Retry-After; once reconciliation confirms the transfer, the same credential for the same
 * request collects the kept result with its Payment-Receipt (nothing run or settled again), even after its challenge
 * expired, while a used credential for another request stays refused. The ledger records the protocol that admitted a
 * payment, so an x402 payment carrying MPP's payload marker stays on /stats' x402 line. Over MCP, mppx's MCP client
 * gets the pending answer as a JSON-RPC error carrying the credential's own challenge, and never pays a second one. Books: payee delta = /stats
 * revenue = ledger, and the per-protocol split.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { verifyReceiptSignatureJWS } from '@x402/extensions/offer-receipt'
import { Credential, Receipt } from 'mppx'
import { evm } from 'mppx/client'
import { McpClient } from 'mppx/mcp/client'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { setEthBalance, usdcBalance } from '../../runtime/chain/usdc'
import { sqliteOf } from '../../runtime/db/open'
import { createLocalFacilitator } from '../../runtime/pay/facilitator/local'
import { challengesFor } from '../../runtime/pay/schemes/mpp/challenge'
import { reconcile } from '../../runtime/pay/schemes/exact/reconcile'
import type { Facilitator } from '../../runtime/pay/types'
import { withEcho } from '../support/extra-service'
import { fundedPayer, startServerOnChain, stopAndTally } from '../support/on-chain'
import { challengesOf, mppClient, signCredential } from '../support/mpp'
import { signPayment } from '../support/pay'
import { SEND_METHODS, startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { decodeB64Json, type TestServer } from '../support/server'
import { until } from '../support/until'
import { mcpClient, textJson } from '../mcp/client'

const SECRET = 'mpp-pending-secret-0123456789-abcdefghijk'
const REALM = 'mpp.pending.test'
let chain: DevChain
let proxy: FaultProxy
let facilitator: Facilitator
let s: TestServer
let payeeBefore: bigint
/** Settlements the server asked of its facilitator. */
let settles = 0
/** Money expected at the payee by the end, and of it paid through MPP. */
let expected = 0n
let viaMpp = 0n

beforeAll(async () => {
  chain = await startDevChain()
  proxy = startFaultProxy(chain.rpcUrl)
  // Its own settler key, settling through the proxy; a receipt not seen within 300 ms leaves the settlement pending.
  const settlerKey = generatePrivateKey()
  await setEthBalance(chain.rpcUrl, privateKeyToAccount(settlerKey).address, 10n ** 18n)
  const local = createLocalFacilitator({
    rpcUrl: proxy.url,
    settlerKey,
    chainId: 8453,
    pollingIntervalMs: 20,
    receiptTimeoutMs: 300,
  })
  facilitator = { ...local, settle: (p, r, cb) => (settles++, local.settle(p, r, cb)) }
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    facilitator,
    env: { INVALID_PAYMENT_LIMIT: '0', MPP_SECRET_KEY: SECRET, MPP_REALM: REALM },
  })
  payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
})
afterAll(async () => {
  proxy?.stop()
  await chain?.stop()
})

const ECHO = '/api/v1/test-echo'
const echo = (code: string, headers: Record<string, string> = {}) =>
  fetch(s.url + ECHO, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ code }),
  })
const offer = async (path = ECHO) =>
  decodeB64Json((await fetch(s.url + path, { method: 'POST', body: '{}' })).headers.get('payment-required')).accepts[0]
const problemType = (p: any) => String(p.type).replace('https://paymentauth.org/problems/', '')
const payerBalance = (address: Hex) => usdcBalance(chain.rpcUrl, address)

test('a pending settlement keeps the result (402 problem, Retry-After); once reconciled the same credential collects it, settled once', async () => {
  const payer = await fundedPayer(chain, 1_000_000n)
  const price = BigInt((await offer()).amount)
  const client = mppClient(payer.key)
  const before = { settles, sends: proxy.sends() }
  // The transfer reaches the node late (after the settler's 300 ms receipt wait): the settlement is pending.
  for (const m of [...SEND_METHODS, 'eth_getTransactionReceipt']) proxy.delayIn.set(m, 3000)
  let authorization: string
  try {
    // mppx's client pays the 402, gets the pending answer, and (its challenge echoed, not a fresh one) sends the same
    // credential again, never a second one: a fresh challenge would have it pay twice for this one request.
    const first = await client.fetch(s.url + ECHO, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'late' }),
    })
    expect(client.carried[0]).toBe('none')
    expect(client.carried.slice(1).every((c) => c === 'authorization: payment')).toBe(true)
    expect(client.credentials.length).toBeGreaterThanOrEqual(1)
    expect(new Set(client.credentials).size).toBe(1)
    authorization = client.credentials[0]
    expect(first.status).toBe(402)
    expect(challengesOf(first).map((c) => c.id)).toEqual([Credential.deserialize(authorization).challenge.id])
    expect(first.headers.get('content-type')).toContain('application/problem+json')
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(first.headers.get('payment-receipt')).toBeNull()
    const p = (await first.json()) as any
    expect(problemType(p)).toBe('verification-failed')
    expect(p.detail).toContain('same credential')
    expect(JSON.stringify(p)).not.toContain('LATE')
    // Sent again while pending: told to wait again; nothing runs, nothing settles.
    const waiting = await echo('late', { authorization })
    expect(waiting.status).toBe(402)
    expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(0)
    const w = (await waiting.json()) as any
    expect(w.reason).toBe('settlement_pending')
    expect(JSON.stringify(w)).not.toContain('LATE')
  } finally {
    proxy.delayIn.clear()
  }
  const ledger = sqliteOf(s.booted).ledger
  const row = ledger.byState(['pending']).at(-1)!
  expect(row).toMatchObject({ protocol: 'mpp', amount: String(price) })
  await until(
    async () => (await payerBalance(payer.address)) === 1_000_000n - price,
    15_000,
    'the late transfer landed',
  )
  expect((await reconcile(s.booted.storage.ledger, facilitator, s.booted.log, 0)).settled).toBe(1)
  expect(ledger.get(row.id)?.state).toBe('settled')
  // The same credential, the same request: the kept result with its Payment-Receipt (signed now: settled by reconciliation).
  const collected = await echo('late', { authorization })
  expect(collected.status).toBe(200)
  expect(((await collected.json()) as any).echo).toBe('LATE')
  expect(collected.headers.get('payment-response')).toBeNull()
  const receipt = Receipt.fromResponse(collected) as any
  expect(receipt).toMatchObject({
    method: 'evm',
    status: 'success',
    chainId: 8453,
    reference: ledger.get(row.id)!.tx_hash,
  })
  const did = (await (await fetch(`${s.url}/.well-known/did.json`)).json()) as any
  expect(
    await verifyReceiptSignatureJWS(
      receipt.extensions['offer-receipt'].info.receipt,
      did.verificationMethod[0].publicKeyJwk,
    ),
  ).toMatchObject({ service: 'test-echo', transaction: receipt.reference, amount: String(price) })
  // Collected again: the very same receipt (kept at the first collection).
  const again = await echo('late', { authorization })
  expect(again.status).toBe(200)
  expect(again.headers.get('payment-receipt')).toBe(collected.headers.get('payment-receipt'))
  // The used credential for another request: refused, nothing run.
  const other = await echo('other', { authorization })
  expect(other.status).toBe(402)
  expect(problemType(await other.json())).toBe('invalid-challenge')
  // One settlement asked, one transfer sent, the payer charged once.
  expect(settles - before.settles).toBe(1)
  expect(proxy.sends() - before.sends).toBe(1)
  expect(await payerBalance(payer.address)).toBe(1_000_000n - price)
  expected += price
  viaMpp += price
}, 60_000)

test('a credential whose challenge expired still collects the result it paid for, and pays nothing again', async () => {
  const payer = await fundedPayer(chain, 1_000_000n)
  const entry = await offer()
  const price = BigInt(entry.amount)
  // A genuine challenge of this server that expires in 15 s, signed as mppx's client signs it.
  const keys = { secretKey: SECRET, realm: REALM, source: 'MPP_SECRET_KEY' as const }
  const challenge = challengesFor(keys, [entry], 15)[0]
  const authorization = await signCredential(payer.key, challenge)
  const paid = await echo('soon', { authorization })
  expect(paid.status).toBe(200)
  const before = settles
  await until(() => Date.now() > Date.parse(challenge.expires!) + 1000, 30_000, 'the challenge expired')
  const collected = await echo('soon', { authorization })
  expect(collected.status).toBe(200)
  expect(((await collected.json()) as any).echo).toBe('SOON')
  expect(collected.headers.get('payment-receipt')).toBe(paid.headers.get('payment-receipt'))
  // Expired, for another request: the expiry is the answer.
  const other = await echo('other', { authorization })
  expect(other.status).toBe(402)
  expect(problemType(await other.json())).toBe('payment-expired')
  expect(settles).toBe(before)
  expect(await payerBalance(payer.address)).toBe(1_000_000n - price)
  expected += price
  viaMpp += price
}, 60_000)

test("over MCP: mppx's MCP client gets the pending settlement as a JSON-RPC error with the echoed challenge, pays nothing twice; once reconciled the same credential collects the result and receipt", async () => {
  const payer = await fundedPayer(chain, 1_000_000n)
  const c = await mcpClient(s.url, '?tools=all')
  const before = { settles, sends: proxy.sends() }
  const sent: unknown[] = []
  const wrapped = McpClient.wrap(
    {
      callTool: (params: any, ...rest: any[]) => {
        sent.push(params._meta?.['org.paymentauth/credential'] ?? 'none')
        return (c.callTool as any)(params, ...rest)
      },
    } as any,
    { methods: [evm.charge({ account: privateKeyToAccount(payer.key), currencies: [evm.assets.base.USDC] })] },
  )
  for (const m of [...SEND_METHODS, 'eth_getTransactionReceipt']) proxy.delayIn.set(m, 3000)
  let err: any
  try {
    err = await wrapped.callTool({ name: 'slugify', arguments: { text: 'Late over MCP' } }).catch((e: unknown) => e)
  } finally {
    proxy.delayIn.clear()
  }
  // Paid once, then the same credential again (its challenge echoed), until the client gives up: one settlement.
  expect(err.code).toBe(-32043)
  expect(err.data.problem.reason).toBe('settlement_pending')
  const credentials = sent.filter((x) => x !== 'none')
  expect(credentials.length).toBeGreaterThanOrEqual(1)
  const ids = new Set(credentials.map((x: any) => x.challenge.id))
  expect([...ids]).toEqual(err.data.challenges.map((x: any) => x.id))
  expect(new Set(credentials.map((x: any) => x.payload.signature)).size).toBe(1)
  const price = 1000n
  await until(
    async () => (await payerBalance(payer.address)) === 1_000_000n - price,
    15_000,
    'the late transfer landed',
  )
  expect((await reconcile(s.booted.storage.ledger, facilitator, s.booted.log, 0)).settled).toBe(1)
  const collected = (await c.callTool({
    name: 'slugify',
    arguments: { text: 'Late over MCP' },
    _meta: { 'org.paymentauth/credential': credentials[0] },
  })) as any
  expect(collected.isError).toBeUndefined()
  expect(textJson(collected)).toBeTruthy()
  expect(collected._meta['org.paymentauth/receipt']).toMatchObject({ method: 'evm', status: 'success', chainId: 8453 })
  expect(collected._meta['org.paymentauth/receipt'].reference).toMatch(/^0x[0-9a-f]{64}$/)
  expect(settles - before.settles).toBe(1)
  expect(proxy.sends() - before.sends).toBe(1)
  expect(await payerBalance(payer.address)).toBe(1_000_000n - price)
  await c.close()
  expected += price
  viaMpp += price
}, 60_000)

test("an x402 payment carrying MPP's payload marker is booked as x402: the ledger records the protocol that admitted it", async () => {
  const payer = await fundedPayer(chain, 1_000_000n)
  const entry = await offer()
  const header = await signPayment({ key: payer.key, requirements: entry })
  const forged = JSON.parse(Buffer.from(header, 'base64').toString())
  forged.extensions = { 'org.paymentauth': { challengeId: 'forged', realm: REALM } }
  const r = await echo('forged', { 'payment-signature': Buffer.from(JSON.stringify(forged)).toString('base64') })
  expect(r.status).toBe(200)
  expect(decodeB64Json(r.headers.get('payment-response')).success).toBe(true)
  const row = sqliteOf(s.booted)
    .ledger.byState(['settled'])
    .find((x) => x.payer === payer.address.toLowerCase())!
  expect(row.payload).toContain('org.paymentauth')
  expect(row.protocol).toBe('x402')
  expected += BigInt(entry.amount)
})

test('books: payee delta = /stats revenue = ledger, and /stats splits it by the protocol that admitted each payment', async () => {
  const report = (await (await fetch(`${s.url}/stats`)).json()) as any
  expect(BigInt(report.protocols.mpp.revenue_atomic)).toBe(viaMpp)
  expect(report.protocols.mpp.paid_calls).toBe(3)
  expect(BigInt(report.protocols.x402.revenue_atomic)).toBe(expected - viaMpp)
  expect(report.protocols.x402.paid_calls).toBe(1)
  const { delta, stats, ledger } = await stopAndTally(chain, [s], payeeBefore)
  expect(delta).toBe(expected)
  expect(stats).toBe(delta)
  expect(ledger).toBe(delta)
})
