/**
 * Pending settlements: the receipt does not arrive in time (a delaying RPC proxy), the result is withheld and the
 * payment recorded as pending with its hash; after a restart the ledger reconciles against the chain and counts
 * the revenue exactly once.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { createLocalFacilitator } from '../../runtime/pay/facilitator/local'
import { decodeB64Json, post, requirementsAt } from '../support/server'
import { categories, upstreams } from '../support/entries'
import { withEcho } from '../support/extra-service'
import { MINED_ANSWERS, startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { signPayment } from '../support/pay'
import { boot } from '../../runtime/boot'
import { createLogger } from '../../runtime/log'
import { chainFacilitator, startServerOnChain } from '../support/on-chain'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
let proxy: FaultProxy
beforeAll(async () => {
  chain = await startDevChain()
  proxy = startFaultProxy(chain.rpcUrl)
})
afterAll(async () => {
  proxy?.stop()
  await chain?.stop()
})

test('a settlement whose receipt is late is pending, withheld, and reconciled after a restart', async () => {
  const slow = chainFacilitator(chain, { rpcUrl: proxy.url, receiptTimeoutMs: 300 })
  const s = await startServerOnChain(chain, {
    entries: withEcho(),
    facilitator: slow,
  })
  const dbPath = s.booted.config.databasePath
  const req = await requirementsAt(s.url + '/api/v1/test-echo')
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  // the node mines the transaction at once; its answers (the receipt) reach us late
  for (const m of MINED_ANSWERS) proxy.delayOut.set(m, 1500)
  const r = await post(
    s.url + '/api/v1/test-echo',
    { code: 'late receipt' },
    { 'payment-signature': await signPayment({ key: chain.payer.privateKey as Hex, requirements: req }) },
  )
  proxy.delayOut.clear()
  expect(r.status).toBe(402)
  expect(JSON.stringify(await r.json())).not.toContain('LATE RECEIPT')
  const receipt = decodeB64Json(r.headers.get('payment-response'))
  expect(receipt).toMatchObject({ success: false, errorReason: 'settlement_pending' })
  expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/)
  const [row] = sqliteOf(s.booted).ledger.byState(['pending'])
  expect(row).toMatchObject({ tx_hash: receipt.transaction, slug: 'test-echo' })
  expect(((await (await fetch(s.url + '/stats/today')).json()) as any).totals.revenue_usd).toBe(0)
  // the transfer did happen on chain
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(4200n)

  // restart on the same database file: boot reconciles
  await s.booted.close()
  sqliteOf(s.booted).db.close()
  const again = await boot({
    env: { PATH: process.env.PATH, DATABASE_PATH: dbPath, PAY_TO: chain.payee.address },
    entries: withEcho(),
    upstreams,
    categories,
    facilitator: chainFacilitator(chain),
    log: createLogger('silent'),
    reconcileEveryMs: 3_600_000,
  })
  expect(sqliteOf(again).ledger.get(row.id)).toMatchObject({ state: 'settled', tx_hash: receipt.transaction })
  expect(sqliteOf(again).ledger.settledTotal()).toBe(4200n)
  const paid = () =>
    sqliteOf(again)
      .ledger.settledByDay(0)
      .find((x) => x.slug === 'test-echo')
  expect(paid()).toMatchObject({ paid_calls: 1, revenue_atomic: '4200' })
  // reconciling again changes nothing: counted once
  const { reconcile } = await import('../../runtime/pay/schemes/exact/reconcile')
  await reconcile(
    again.storage.ledger,
    createLocalFacilitator({ rpcUrl: chain.rpcUrl, settlerKey: chain.settler.privateKey as Hex, chainId: 8453 }),
    again.log,
    0,
  )
  expect(paid()).toMatchObject({ paid_calls: 1, revenue_atomic: '4200' })
  await again.close()
  sqliteOf(again).db.close()
})

test('a reconciliation that races an in-flight settlement never counts the revenue twice', async () => {
  const slow = chainFacilitator(chain, { rpcUrl: proxy.url, receiptTimeoutMs: 5000 })
  const s = await startServerOnChain(chain, {
    entries: withEcho(),
    facilitator: slow,
  })
  try {
    const req = await requirementsAt(s.url + '/api/v1/test-echo')
    proxy.calls.clear()
    for (const m of MINED_ANSWERS) proxy.delayOut.set(m, 1500)
    const inflight = post(
      s.url + '/api/v1/test-echo',
      { code: 'race' },
      { 'payment-signature': await signPayment({ key: chain.payer.privateKey as Hex, requirements: req }) },
    )
    while (!proxy.sends()) await Bun.sleep(5)
    await Bun.sleep(100) // forwarded: the node mines it at once (automine); only its answer is late
    // the request is now waiting for its (delayed) receipt; the reconciler reads the chain directly and wins the race
    const { reconcile } = await import('../../runtime/pay/schemes/exact/reconcile')
    const direct = createLocalFacilitator({
      rpcUrl: chain.rpcUrl,
      settlerKey: chain.settler.privateKey as Hex,
      chainId: 8453,
    })
    const r1 = await reconcile(s.booted.storage.ledger, direct, s.booted.log, 0)
    proxy.delayOut.clear()
    const r = await inflight
    expect(r.status).toBe(200)
    expect(r1.settled).toBe(1)
    expect(
      sqliteOf(s.booted)
        .ledger.settledByDay(0)
        .find((x) => x.slug === 'test-echo'),
    ).toMatchObject({
      paid_calls: 1,
      revenue_atomic: '4200',
    })
    expect(((await (await fetch(s.url + '/stats/today')).json()) as any).totals).toMatchObject({
      paid_calls: 1,
      revenue_atomic: '4200',
    })
  } finally {
    await s.stop()
  }
})
