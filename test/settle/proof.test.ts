/**
 * Proof of payment is a receipt whose logs show THIS authorization paying US (#13 items 2 and 3):
 * - a payer who burns the nonce of a row left `settling` (no tx hash) with another authorization paying himself
 *   is not counted: reconciliation marks the row failed, /stats and the payee do not move;
 * - the same row, when the authorization really paid us (submitted by someone else), is settled from the logs;
 * - a third party who front-runs the authorization while the handler runs: the caller still gets 200 with a
 *   PAYMENT-RESPONSE naming the front-runner's transaction, and the books count it exactly once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { reconcile } from '../../runtime/pay/schemes/exact/reconcile'
import { decodePayment } from '../../runtime/pay/wire'
import type { DecodedPayment, PaymentRequirements } from '../../runtime/pay/types'
import { defineService, handlerFor, serviceRequest, t } from '../../runtime/sdk'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { entries } from '../support/entries'
import { decodeB64Json, type TestServer } from '../support/server'
import { payment, settlerKeys, submitElsewhere as submitTo } from './helpers'
import { until } from '../support/until'
import { requirements } from '../support/pay'

const submitElsewhere = (p: DecodedPayment, key: Hex) => submitTo(chain.rpcUrl, p, key)
import { reservationOf } from '../support/reservation'
import { payingFetch } from '../support/paying-fetch'
import { chainFacilitator, startServerOnChain } from '../support/on-chain'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
beforeAll(async () => {
  chain = await startDevChain({ payerUsdc: 10_000_000n })
})
afterAll(() => chain?.stop())

/** A ledger row left `settling` without a tx hash (the process died before the send), as the gate writes it. */
async function settlingRow(s: TestServer, p: DecodedPayment, req: PaymentRequirements, slug: string): Promise<number> {
  const id = sqliteOf(s.booted).ledger.reserve(
    reservationOf(p.raw, req, {
      slug,
      amount: req.amount,
      requestId: 'r-' + p.payload.authorization.nonce.slice(2, 10),
    }),
  )!
  sqliteOf(s.booted).ledger.transition(id, 'verified')
  await sqliteOf(s.booted).ledger.transition(id, 'settling')
  return id
}

const revenue = async (s: TestServer) =>
  ((await (await fetch(s.url + '/stats/today')).json()) as any).totals.revenue_usd as number

describe('reconciliation needs a matching log, not authorizationState', () => {
  test('a nonce burned by a different authorization (to = payer, value 1) is failed; the real one is settled from the logs', async () => {
    const [third] = await settlerKeys(chain.rpcUrl, 1)
    const f = chainFacilitator(chain, { blockTimeMs: 250 })
    const s = await startServerOnChain(chain, { facilitator: f })
    try {
      const req = requirements(chain.payee.address)
      const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
      const revenueBefore = await revenue(s)
      // five rows left settling; the payer burns each nonce with an authorization paying himself 1 unit
      const burned: number[] = []
      for (let i = 0; i < 5; i++) {
        const p = await payment(chain.payer.privateKey, req)
        burned.push(await settlingRow(s, p, req, 'slugify'))
        const burn = await payment(chain.payer.privateKey, req, {
          nonce: p.payload.authorization.nonce,
          to: chain.payer.address,
          value: '1',
        })
        await submitElsewhere(burn, third)
      }
      // a sixth row whose authorization really paid us, submitted by someone else
      const real = await payment(chain.payer.privateKey, req)
      const realId = await settlingRow(s, real, req, 'slugify')
      await submitElsewhere(real, third)
      await until(
        async () => (await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore === 1000n,
        10_000,
        'the real transfer mined',
      )

      const out = await reconcile(s.booted.storage.ledger, f, s.booted.log, 0)
      expect(out).toMatchObject({ settled: 1, failed: 5 })
      for (const id of burned) expect(sqliteOf(s.booted).ledger.get(id)!.state).toBe('failed')
      expect(sqliteOf(s.booted).ledger.get(realId)!.state).toBe('settled')
      sqliteOf(s.booted).stats.flush()
      expect(Math.round(((await revenue(s)) - revenueBefore) * 1e6)).toBe(1000)
      expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore).toBe(1000n)
      expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(1000n)
    } finally {
      await s.stop()
    }
  })
})

describe('front-running', () => {
  test('a third party submits the authorization while the handler runs: 200 with their tx in PAYMENT-RESPONSE, counted once', async () => {
    let release!: () => void
    let started = false
    const gate = new Promise<void>((r) => {
      release = r
    })
    const manifest = defineService({
      slug: 'test-slow',
      name: 'Test slow',
      description: 'Waits for the test before answering (tests only).',
      category: 'text',
      kind: 'utility',
      method: 'POST',
      pricing: { flat: { price_usd: 0.0042, max_tokens: 0 } },
      model: 'none',
      input: serviceRequest(),
      output: t.Object({ echo: t.String() }),
      examples: [{ name: 'x', input: { code: 'x' }, output: { echo: 'X' } }],
    })
    const slow: RegistryEntry = {
      folder: 'test-slow',
      manifest,
      handler: handlerFor(manifest, async ({ code }) => {
        started = true
        await gate
        return { echo: code.toUpperCase() }
      }),
    }
    const [third] = await settlerKeys(chain.rpcUrl, 1)
    const payer = generatePrivateKey()
    await fundPayer(chain, privateKeyToAccount(payer).address, 1_000_000n)
    const f = chainFacilitator(chain, { blockTimeMs: 250 })
    const s = await startServerOnChain(chain, {
      entries: [...entries, slow],
      facilitator: f,
    })
    try {
      const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
      // the official client; a wrapper sees the header it sends (as a proxy or a log line would)
      let seen = ''
      const spy: typeof fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const req = new Request(input, init)
        seen = req.headers.get('payment-signature') ?? seen
        return fetch(req)
      }) as typeof fetch
      const client = payingFetch(payer, spy)
      const pending = client(s.url + '/api/v1/test-slow', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: 'front run' }),
      })
      await until(() => started, 20_000, 'handler started')
      const frontTx = await submitElsewhere(decodePayment(seen, 2), third)
      await until(
        async () => (await usdcBalance(chain.rpcUrl, chain.payee.address)) - before === 4200n,
        10_000,
        'front-runner mined',
      )
      release()
      const r = await pending
      expect(r.status).toBe(200)
      expect(await r.json()).toEqual({ echo: 'FRONT RUN' })
      const receipt = decodeB64Json(r.headers.get('payment-response'))
      expect(receipt).toMatchObject({ success: true, transaction: frontTx })
      expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(4200n)
      const rows = sqliteOf(s.booted).ledger.byState(['settled'])
      expect(rows.length).toBe(1)
      expect(rows[0].tx_hash).toBe(frontTx)
      expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(4200n)
      const stats = (await (await fetch(s.url + '/stats/today')).json()) as any
      expect(Math.round(stats.totals.revenue_usd * 1e6)).toBe(4200)
    } finally {
      release()
      await s.stop()
    }
  })
})
