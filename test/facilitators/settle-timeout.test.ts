/**
 * The money rule of failover, end to end: the first facilitator broadcasts the transfer but its /settle answer
 * never arrives in time. The call must not be sent to the second facilitator (it would be a second attempt at
 * the same money), no result is served, the payment stays pending, and reconciliation from the chain
 * (RPC_URL beside FACILITATOR_URL) counts it exactly once.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { loadConfig } from '../../runtime/config'
import { createLogger } from '../../runtime/log'
import { reconcile } from '../../runtime/pay/schemes/exact/reconcile'
import { remoteFacilitators } from '../../runtime/pay/facilitator/remote-setup'
import { startOfficialFacilitator, type OfficialFacilitator } from '../support/official-facilitator'
import { signPayment } from '../support/pay'
import { post, startServer, type TestServer, requirementsAt } from '../support/server'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
let fac: OfficialFacilitator
let s: TestServer
let release!: () => void
const held = new Promise<void>((r) => {
  release = r
})
const slowHits: Record<string, number> = {}
const secondHits: Record<string, number> = {}
let slow: ReturnType<typeof Bun.serve>
let second: ReturnType<typeof Bun.serve>
let list: ReturnType<typeof remoteFacilitators>

beforeAll(async () => {
  chain = await startDevChain()
  fac = startOfficialFacilitator(chain.rpcUrl, chain.settler.privateKey as Hex)
  // Forwards everything to the official facilitator, but holds the /settle answer (after the transfer was sent).
  slow = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      slowHits[path] = (slowHits[path] ?? 0) + 1
      const res = await fetch(fac.url + path, {
        method: req.method,
        headers: { 'content-type': 'application/json' },
        body: req.method === 'POST' ? await req.text() : undefined,
      })
      const body = await res.text()
      if (path === '/settle') await held
      return new Response(body, { status: res.status, headers: { 'content-type': 'application/json' } })
    },
  })
  second = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const path = new URL(req.url).pathname
      secondHits[path] = (secondHits[path] ?? 0) + 1
      return Response.json(
        path === '/settle'
          ? { success: true, transaction: `0x${'ab'.repeat(32)}`, network: 'eip155:8453' }
          : path === '/verify'
            ? { isValid: true }
            : { kinds: [] },
      )
    },
  })
  const env = {
    PAY_TO: chain.payee.address,
    FACILITATOR_URL: `http://127.0.0.1:${slow.port},http://127.0.0.1:${second.port}`,
    RPC_URL: chain.rpcUrl,
  }
  const { config, problems } = loadConfig(env)
  expect(problems).toEqual([])
  list = remoteFacilitators(config, createLogger('silent'), { settleTimeoutMs: 2000 })
  s = await startServer({ facilitator: list, payTo: chain.payee.address, env })
}, 120_000)
afterAll(async () => {
  release?.()
  await s?.stop()
  slow?.stop(true)
  second?.stop(true)
  fac?.stop()
  await chain?.stop()
})

test('a timed-out /settle is not retried elsewhere; it stays pending and is reconciled from the chain once', async () => {
  const req = await requirementsAt(s.url + '/api/v1/slugify')
  const r = await post(
    s.url + '/api/v1/slugify',
    { text: 'slow settle' },
    { 'payment-signature': await signPayment({ key: chain.payer.privateKey as Hex, requirements: req }) },
  )
  expect(r.status).toBe(402)
  expect(JSON.stringify(await r.json())).not.toContain('slow-settle')
  expect(slowHits['/settle']).toBe(1)
  expect(secondHits['/settle']).toBeUndefined()
  expect(secondHits['/verify']).toBeUndefined()
  expect(sqliteOf(s.booted).ledger.byState(['pending']).length).toBe(1)
  expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(0n)

  // The first facilitator did send it: the money arrives on chain.
  for (
    const end = Date.now() + 60_000;
    (await usdcBalance(chain.rpcUrl, chain.payee.address)) !== 1000n;
    await Bun.sleep(50)
  ) {
    if (Date.now() > end) throw new Error('the transfer never landed')
  }
  expect(await reconcile(s.booted.storage.ledger, list, s.booted.log, 0)).toMatchObject({ settled: 1, failed: 0 })
  expect(await reconcile(s.booted.storage.ledger, list, s.booted.log, 0)).toMatchObject({ settled: 0 })
  const stats = (await (await fetch(s.url + '/stats')).json()) as any
  const settled = sqliteOf(s.booted).ledger.settledTotal()
  expect(settled).toBe(1000n)
  expect(BigInt(Math.round(stats.totals.revenue_usd * 1e6))).toBe(settled)
  expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(settled)
})
