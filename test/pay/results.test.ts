/**
 * Paid results collectable again (x402 #1062/#2294) and the payment-identifier extension, on a real local Base
 * replica (anvil + Circle's USDC) with the official @x402/fetch client and hand-signed replays. Every test that
 * moves money ends with: /stats revenue = ledger settled total = payee's on-chain delta, exactly.
 */
import { verifyReceiptSignatureJWS } from '@x402/extensions/offer-receipt'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { setEthBalance, usdcBalance } from '../../runtime/chain/usdc'
import { createLocalFacilitator } from '../../runtime/pay/facilitator/local'
import { reconcile } from '../../runtime/pay/schemes/exact/reconcile'
import type { Facilitator } from '../../runtime/pay/types'
import { decodeB64Json, post, startServer, type TestServer, requirementsAt } from '../support/server'
import { withEcho } from '../support/extra-service'
import { countingServices } from '../support/counting-service'
import { SEND_METHODS, startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { signPayment } from '../support/pay'
import { chainFacilitator } from '../support/on-chain'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
let proxy: FaultProxy
let s: TestServer
let payee: `0x${string}`
const counted = { settle: 0 }
const svc = countingServices()

function counting(inner: Facilitator): Facilitator {
  return {
    kind: inner.kind,
    verify: (p, r) => inner.verify(p, r),
    settle: (p, r, cb) => (counted.settle++, inner.settle(p, r, cb)),
    status: (tx, p, r) => inner.status(tx, p, r),
    balance: inner.balance,
  }
}

/** A server paid to its own fresh address, so its payee delta is its own revenue. */
async function serverFor(facilitator: Facilitator) {
  const to = privateKeyToAccount(generatePrivateKey()).address
  const server = await startServer({
    entries: [...withEcho(), ...svc.entries],
    facilitator,
    payTo: to,
    env: { PAY_TO: to, INVALID_PAYMENT_LIMIT: '0' },
  })
  return { server, payTo: to }
}

beforeAll(async () => {
  chain = await startDevChain()
  proxy = startFaultProxy(chain.rpcUrl)
  const made = await serverFor(counting(chainFacilitator(chain)))
  s = made.server
  payee = made.payTo
})
afterAll(async () => {
  await s?.stop()
  proxy?.stop()
  await chain?.stop()
})
beforeEach(() => {
  counted.settle = 0
})

const key = () => chain.payer.privateKey as Hex
const requirementsOf = (server: TestServer, path: string) => requirementsAt(server.url + path)
/** `header` with its signature replaced by another key's over the same authorization fields (a forgery). */
async function forgedCopy(header: string, requirements: Record<string, unknown>): Promise<string> {
  const p = JSON.parse(Buffer.from(header, 'base64').toString())
  const a = p.payload.authorization
  const other = await signPayment({
    key: generatePrivateKey(),
    requirements,
    nonce: a.nonce,
    validBefore: Number(a.validBefore),
  })
  p.payload.signature = JSON.parse(Buffer.from(other, 'base64').toString()).payload.signature
  return Buffer.from(JSON.stringify(p)).toString('base64')
}
const payeeBalance = (addr = payee) => usdcBalance(chain.rpcUrl, addr)

/** /stats revenue = ledger settled total = payee's on-chain balance (it started at 0), exactly. */
async function expectBooksBalance(server = s, addr = payee) {
  const stats = (await (await fetch(server.url + '/stats')).json()) as { totals: { revenue_usd: number } }
  const onChain = await payeeBalance(addr)
  expect(BigInt(Math.round(stats.totals.revenue_usd * 1e6))).toBe(onChain)
  expect(sqliteOf(server.booted).ledger.settledTotal()).toBe(onChain)
}

function paidClient(id?: string) {
  const client = new x402Client().register('eip155:8453', new ExactEvmScheme(privateKeyToAccount(key())))
  if (id)
    client.onBeforePaymentCreation(async ({ paymentRequired }) => {
      appendPaymentIdentifierToExtensions((paymentRequired.extensions ??= {}), id)
    })
  return wrapFetchWithPayment(fetch, client)
}
const jsonInit = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

/** A hand-signed v2 payment header, optionally carrying a payment identifier in its extensions. */
async function signed(requirements: unknown, id?: string): Promise<string> {
  const h = await signPayment({ key: key(), requirements: requirements as Record<string, unknown> })
  if (!id) return h
  const p = JSON.parse(Buffer.from(h, 'base64').toString())
  p.extensions = { [PAYMENT_IDENTIFIER]: { info: { required: false, id } } }
  return Buffer.from(JSON.stringify(p)).toString('base64')
}

describe('the identical payment for the identical request collects the kept result', () => {
  test('resent: same body and the same receipt, handler run once, settled once', async () => {
    const before = await payeeBalance()
    const runs = svc.state.runs.count
    const header = await signed(await requirementsOf(s, '/api/v1/test-count'))
    const first = await post(s.url + '/api/v1/test-count', { code: 'keep me' }, { 'payment-signature': header })
    expect(first.status).toBe(200)
    const firstBody = await first.text()
    const receipt = first.headers.get('payment-response')
    expect(decodeB64Json(receipt)).toMatchObject({ success: true, payer: chain.payer.address })
    const again = await post(s.url + '/api/v1/test-count', { code: 'keep me' }, { 'payment-signature': header })
    expect(again.status).toBe(200)
    expect(await again.text()).toBe(firstBody)
    expect(again.headers.get('payment-response')).toBe(receipt)
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
    // the settlement response carries a signed receipt (issued once, docs/receipts.md): it is kept with the result
    // and the same one is sent again
    expect(
      sqliteOf(s.booted).db.query('SELECT receipt FROM paid_results ORDER BY payment_id DESC LIMIT 1').get(),
    ).toEqual({
      receipt,
    })
    expect(decodeB64Json(receipt).extensions['offer-receipt'].info.receipt.format).toBe('jws')
    expect(svc.state.runs.count).toBe(runs + 1)
    expect(counted.settle).toBe(1)
    expect((await payeeBalance()) - before).toBe(3100n)
    await expectBooksBalance()
  })

  test('v1 X-PAYMENT resent: the same X-PAYMENT-RESPONSE', async () => {
    const header = await signPayment({
      key: key(),
      requirements: await requirementsOf(s, '/api/test-count'),
      version: 1,
    })
    const first = await post(s.url + '/api/test-count', { code: 'legacy' }, { 'x-payment': header })
    expect(first.status).toBe(200)
    const again = await post(s.url + '/api/test-count', { code: 'legacy' }, { 'x-payment': header })
    expect(again.status).toBe(200)
    expect(await again.text()).toBe(await first.text())
    expect(again.headers.get('x-payment-response')).toBe(first.headers.get('x-payment-response'))
    expect(counted.settle).toBe(1)
    await expectBooksBalance()
  })

  test('resent after its authorization expired (within the grace): still collected, not settled again', async () => {
    const validBefore = Math.floor(Date.now() / 1000) + 15
    const header = await signPayment({
      key: key(),
      requirements: await requirementsOf(s, '/api/v1/test-count'),
      validBefore,
    })
    const first = await post(s.url + '/api/v1/test-count', { code: 'expiring' }, { 'payment-signature': header })
    expect(first.status).toBe(200)
    // wait (for the clock, not for the server) until the local checks call this authorization expired
    while (Math.floor(Date.now() / 1000) + 6 <= validBefore) await Bun.sleep(100)
    const fresh = await signPayment({
      key: key(),
      requirements: await requirementsOf(s, '/api/v1/test-count'),
      validBefore,
    })
    const refused = await post(s.url + '/api/v1/test-count', { code: 'expiring' }, { 'payment-signature': fresh })
    expect(((await refused.json()) as { reason: string }).reason).toBe(
      'invalid_exact_evm_payload_authorization_valid_before',
    )
    // past the local checks, a copy with another key's signature over the same fields gets nothing
    const forged = await post(
      s.url + '/api/v1/test-count',
      { code: 'expiring' },
      { 'payment-signature': await forgedCopy(header, await requirementsOf(s, '/api/v1/test-count')) },
    )
    expect(forged.status).toBe(402)
    expect(JSON.stringify(await forged.json())).not.toContain('EXPIRING')
    const again = await post(s.url + '/api/v1/test-count', { code: 'expiring' }, { 'payment-signature': header })
    expect(again.status).toBe(200)
    expect(again.headers.get('payment-response')).toBe(first.headers.get('payment-response'))
    expect(counted.settle).toBe(1)
    await expectBooksBalance()
  }, 40_000)

  test('the same authorization for a different request stays refused', async () => {
    const header = await signed(await requirementsOf(s, '/api/v1/test-count'))
    expect((await post(s.url + '/api/v1/test-count', { code: 'one' }, { 'payment-signature': header })).status).toBe(
      200,
    )
    const before = await payeeBalance()
    for (const [path, body] of [
      ['/api/v1/test-count', { code: 'two' }],
      ['/api/v1/test-count', { code: 'one', language: 'js' }],
      ['/api/v1/test-count', ' {"code":"one"}'],
    ] as const) {
      const r = await post(s.url + path, body, { 'payment-signature': header })
      expect(r.status).toBe(402)
      const j = (await r.json()) as { reason: string }
      expect(j.reason).toBe('authorization_already_used')
      expect(JSON.stringify(j)).not.toContain('"echo"')
    }
    expect(counted.settle).toBe(1)
    expect(await payeeBalance()).toBe(before)
    await expectBooksBalance()
  })

  test('a payment signed by someone else with the same payer and nonce does not collect', async () => {
    const req = await requirementsOf(s, '/api/v1/test-count')
    const header = await signed(req)
    expect((await post(s.url + '/api/v1/test-count', { code: 'mine' }, { 'payment-signature': header })).status).toBe(
      200,
    )
    // a forged signature over the same authorization (another key): the kept result is not handed out
    const r = await post(
      s.url + '/api/v1/test-count',
      { code: 'mine' },
      { 'payment-signature': await forgedCopy(header, req) },
    )
    expect(r.status).toBe(402)
    expect(JSON.stringify(await r.json())).not.toContain('MINE')
    expect(counted.settle).toBe(1)
    await expectBooksBalance()
  })
})

describe('a pending settlement', () => {
  test('answers 402 settlement_pending with Retry-After (by authorization and by identifier), then the result once reconciled', async () => {
    // its own settler key: two facilitators never share a nonce lane
    const settlerKey = generatePrivateKey()
    await setEthBalance(chain.rpcUrl, privateKeyToAccount(settlerKey).address, 10n ** 18n)
    const slow = createLocalFacilitator({
      rpcUrl: proxy.url,
      settlerKey,
      chainId: 8453,
      pollingIntervalMs: 20,
      receiptTimeoutMs: 300,
    })
    const { server, payTo } = await serverFor(counting(slow))
    try {
      const req = await requirementsOf(server, '/api/v1/test-count')
      const id = generatePaymentId()
      const header = await signed(req, id)
      // the send reaches the node late (after the 300 ms receipt wait): the settlement is pending with its hash
      for (const m of [...SEND_METHODS, 'eth_getTransactionReceipt']) proxy.delayIn.set(m, 3000)
      const first = await post(server.url + '/api/v1/test-count', { code: 'late' }, { 'payment-signature': header })
      expect(first.status).toBe(402)
      expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(JSON.stringify(await first.json())).not.toContain('LATE')
      const tx = decodeB64Json(first.headers.get('payment-response')).transaction
      expect(tx).toMatch(/^0x[0-9a-f]{64}$/)
      // resent while pending: told to wait, no result, no second settlement
      const waiting = await post(server.url + '/api/v1/test-count', { code: 'late' }, { 'payment-signature': header })
      expect(waiting.status).toBe(402)
      expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(0)
      const w = (await waiting.json()) as Record<string, unknown>
      expect(w.reason).toBe('settlement_pending')
      expect(decodeB64Json(waiting.headers.get('payment-required')).error).toBe('settlement_pending')
      expect(JSON.stringify(w)).not.toContain('LATE')
      // the same payment identifier with a NEW authorization: also told to wait, and that authorization is not used
      const byId = await post(
        server.url + '/api/v1/test-count',
        { code: 'late' },
        { 'payment-signature': await signed(req, id) },
      )
      expect(byId.status).toBe(402)
      expect(((await byId.json()) as { reason: string }).reason).toBe('settlement_pending')
      expect(byId.headers.get('retry-after')).not.toBeNull()
      proxy.delayIn.clear()
      const t0 = Date.now()
      while ((await payeeBalance(payTo)) === 0n) {
        if (Date.now() - t0 > 15_000) throw new Error('the late transfer never landed')
        await Bun.sleep(20)
      }
      const done = await reconcile(server.booted.storage.ledger, slow, server.booted.log, 0)
      expect(done.settled).toBe(1)
      const collected = await post(server.url + '/api/v1/test-count', { code: 'late' }, { 'payment-signature': header })
      expect(collected.status).toBe(200)
      expect(((await collected.json()) as { echo: string }).echo).toBe('LATE')
      // settled by reconciliation: the receipt is signed at collection (docs/receipts.md), then kept
      const settle = decodeB64Json(collected.headers.get('payment-response'))
      expect(settle).toMatchObject({
        success: true,
        transaction: tx,
        network: 'eip155:8453',
        payer: chain.payer.address,
      })
      const receipt = settle.extensions['offer-receipt'].info.receipt
      const did = (await (await server.fetch('/.well-known/did.json')).json()) as any
      expect(await verifyReceiptSignatureJWS(receipt, did.verificationMethod[0].publicKeyJwk)).toMatchObject({
        service: 'test-count',
        transaction: tx,
        amount: '3100',
      })
      const collectedById = await post(
        server.url + '/api/v1/test-count',
        { code: 'late' },
        { 'payment-signature': await signed(req, id) },
      )
      expect(collectedById.status).toBe(200)
      expect(collectedById.headers.get('payment-response')).toBe(collected.headers.get('payment-response'))
      expect(counted.settle).toBe(1)
      expect(await payeeBalance(payTo)).toBe(3100n)
      await expectBooksBalance(server, payTo)
    } finally {
      proxy.delayIn.clear()
      await server.stop()
    }
  })
})

describe('payment-identifier extension', () => {
  test('is advertised in the 402', async () => {
    const pr = decodeB64Json((await post(s.url + '/api/v1/test-count', {})).headers.get('payment-required'))
    expect(pr.extensions[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false }, schema: { type: 'object' } })
    expect(pr.extensions.bazaar).toBeDefined()
  })

  test('@x402/fetch with the same id and the same request: the kept result, no second settlement', async () => {
    const before = await payeeBalance()
    const runs = svc.state.runs.count
    const id = generatePaymentId()
    const first = await paidClient(id)(s.url + '/api/v1/test-count', jsonInit({ code: 'idempotent' }))
    expect(first.status).toBe(200)
    const body = await first.text()
    // a new client run signs a NEW authorization with the same id
    const second = await paidClient(id)(s.url + '/api/v1/test-count', jsonInit({ code: 'idempotent' }))
    expect(second.status).toBe(200)
    expect(await second.text()).toBe(body)
    expect(second.headers.get('payment-response')).toBe(first.headers.get('payment-response'))
    expect(svc.state.runs.count).toBe(runs + 1)
    expect(counted.settle).toBe(1)
    expect((await payeeBalance()) - before).toBe(3100n)
    // the new authorization was neither used nor reserved
    expect(sqliteOf(s.booted).ledger.byState(['reserved', 'verified', 'settling', 'pending'])).toEqual([])
    await expectBooksBalance()
  })

  test('the same id for a different request is 409 in the error shape, nothing charged', async () => {
    const id = generatePaymentId()
    expect((await paidClient(id)(s.url + '/api/v1/test-count', jsonInit({ code: 'first' }))).status).toBe(200)
    const before = await payeeBalance()
    const r = await paidClient(id)(s.url + '/api/v1/test-count', jsonInit({ code: 'other' }))
    expect(r.status).toBe(409)
    const j = (await r.json()) as { error: { code: string; message: string }; request_id: string }
    expect(j.error.code).toBe('PAYMENT_IDENTIFIER_CONFLICT')
    expect(j.request_id).toMatch(/^req_/)
    expect(counted.settle).toBe(1)
    expect(await payeeBalance()).toBe(before)
    await expectBooksBalance()
  })

  test('two new authorizations with one id at once settle once', async () => {
    const before = await payeeBalance()
    const req = await requirementsOf(s, '/api/v1/test-count')
    const id = generatePaymentId()
    const [a, b] = await Promise.all([signed(req, id), signed(req, id)])
    const rs = await Promise.all(
      [a, b].map((h) => post(s.url + '/api/v1/test-count', { code: 'race' }, { 'payment-signature': h })),
    )
    const statuses = rs.map((r) => r.status)
    expect(statuses).toContain(200)
    for (const r of rs)
      if (r.status !== 200) expect(((await r.json()) as { reason: string }).reason).toBe('settlement_pending')
    expect(counted.settle).toBe(1)
    // whichever lost collects the result afterwards
    const again = await post(
      s.url + '/api/v1/test-count',
      { code: 'race' },
      { 'payment-signature': await signed(req, id) },
    )
    expect(again.status).toBe(200)
    expect(counted.settle).toBe(1)
    expect((await payeeBalance()) - before).toBe(3100n)
    await expectBooksBalance()
  })

  test('a malformed id is a 400 before any payment work', async () => {
    const req = await requirementsOf(s, '/api/v1/test-count')
    const rows = () => (sqliteOf(s.booted).db.query('SELECT COUNT(*) AS n FROM payments').get() as { n: number }).n
    const before = rows()
    for (const bad of ['short', 'has spaces in it, sixteen+', 'x'.repeat(129)]) {
      const r = await post(
        s.url + '/api/v1/test-count',
        { code: 'bad id' },
        { 'payment-signature': await signed(req, bad) },
      )
      expect(r.status).toBe(400)
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('INVALID_PAYMENT_IDENTIFIER')
    }
    expect(counted.settle).toBe(0)
    expect(rows()).toBe(before)
  })
})

describe('a caller that disconnects before its answer', () => {
  test('is not settled: reservation released, no transfer, the authorization works again', async () => {
    const before = await payeeBalance()
    const header = await signed(await requirementsOf(s, '/api/v1/test-slow'))
    const nonce = JSON.parse(Buffer.from(header, 'base64').toString()).payload.authorization.nonce.toLowerCase()
    svc.state.arm()
    const url = new URL(s.url)
    const body = JSON.stringify({ code: 'gone' })
    const sock = await Bun.connect({ hostname: url.hostname, port: Number(url.port), socket: { data() {} } })
    sock.write(
      `POST /api/v1/test-slow HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\npayment-signature: ${header}\r\n\r\n${body}`,
    )
    await svc.state.started
    sock.end()
    const row = () =>
      sqliteOf(s.booted)
        .db.query(`SELECT id, state, reason FROM payments WHERE nonce = ? ORDER BY id DESC LIMIT 1`)
        .get(nonce) as { id: number; state: string; reason: string }
    const deadline = Date.now() + 20_000
    while (row().state !== 'released' && Date.now() < deadline) await Bun.sleep(10)
    expect(row()).toMatchObject({ state: 'released', reason: 'handler 499 CLIENT_CLOSED_REQUEST' })
    // the handler runs to its end anyway; still nothing is settled
    svc.state.open()
    await svc.state.finished
    expect(svc.state.runs.slowAborted).toBe(true) // the handler was told: its signal aborted when the client left
    await Bun.sleep(0)
    expect(row().state).toBe('released')
    expect(counted.settle).toBe(0)
    expect(await payeeBalance()).toBe(before)
    // the same authorization pays once, later
    svc.state.arm()
    svc.state.open()
    const r = await post(s.url + '/api/v1/test-slow', { code: 'back' }, { 'payment-signature': header })
    expect(r.status).toBe(200)
    expect(svc.state.runs.slowAborted).toBe(false)
    expect(((await r.json()) as { echo: string }).echo).toBe('BACK')
    expect(counted.settle).toBe(1)
    expect((await payeeBalance()) - before).toBe(2700n)
    await expectBooksBalance()
  })
})

describe('the identical payment sent again while its call still runs', () => {
  test('is told to wait (402 settlement_pending, Retry-After), then collects the result once; settled once', async () => {
    const before = await payeeBalance()
    const header = await signed(await requirementsOf(s, '/api/v1/test-slow'))
    svc.state.arm()
    const first = post(s.url + '/api/v1/test-slow', { code: 'patience' }, { 'payment-signature': header })
    await svc.state.started
    // the client gave up waiting and sends the same payment for the same request: not "sign a new one"
    const again = await post(s.url + '/api/v1/test-slow', { code: 'patience' }, { 'payment-signature': header })
    expect(again.status).toBe(402)
    expect(again.headers.get('retry-after')).toBe('2')
    const body = (await again.json()) as { reason: string; message: string }
    expect(body.reason).toBe('settlement_pending')
    expect(JSON.stringify(body)).not.toContain('PATIENCE')
    // the same authorization for another request is still refused as used
    const other = await post(s.url + '/api/v1/test-slow', { code: 'other' }, { 'payment-signature': header })
    expect(((await other.json()) as { reason: string }).reason).toBe('authorization_already_used')
    svc.state.open()
    const done = await first
    expect(done.status).toBe(200)
    const receipt = done.headers.get('payment-response')
    const collected = await post(s.url + '/api/v1/test-slow', { code: 'patience' }, { 'payment-signature': header })
    expect(collected.status).toBe(200)
    expect(((await collected.json()) as { echo: string }).echo).toBe('PATIENCE')
    expect(collected.headers.get('payment-response')).toBe(receipt)
    expect(counted.settle).toBe(1)
    expect((await payeeBalance()) - before).toBe(2700n)
    await expectBooksBalance()
  })
})
