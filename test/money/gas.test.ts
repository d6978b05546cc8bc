/**
 * What settlement costs: the gas of each settlement is stored with its ledger row and reported by /stats in wei
 * and (with ETH_USD) in USD, equal to the receipt's gasUsed × effectiveGasPrice read independently from the chain;
 * the boot warns about services priced below the average settlement cost.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createPublicClient, http, type Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { createLocalFacilitator } from '../../runtime/pay/facilitator/local'
import { boot } from '../../runtime/boot'
import { createLogger } from '../../runtime/log'
import { decodeB64Json, post, type TestServer, requirementsAt } from '../support/server'
import { startServerOnChain } from '../support/on-chain'
import { categories, upstreams } from '../support/entries'
import { withEcho } from '../support/extra-service'
import { signPayment } from '../support/pay'
import { sqliteOf } from '../../runtime/db/open'

let chain: DevChain
let s: TestServer
const ETH_USD = 3000
beforeAll(async () => {
  chain = await startDevChain()
  s = await startServerOnChain(chain, {
    entries: withEcho(),
    env: { ETH_USD: String(ETH_USD) },
  })
})
afterAll(async () => {
  await s?.stop()
  await chain?.stop()
})

test('gas per settlement = receipt gasUsed × effectiveGasPrice, in /stats totals, per day and per service', async () => {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const req = await requirementsAt(s.url + '/api/v1/test-echo')
  const txs: Hex[] = []
  for (const code of ['one', 'two']) {
    const r = await post(
      s.url + '/api/v1/test-echo',
      { code },
      { 'payment-signature': await signPayment({ key: chain.payer.privateKey as Hex, requirements: req }) },
    )
    expect(r.status).toBe(200)
    txs.push(decodeB64Json(r.headers.get('payment-response')).transaction)
  }
  const pub = createPublicClient({ transport: http(chain.rpcUrl) })
  let expected = 0n
  for (const tx of txs) {
    const receipt = await pub.getTransactionReceipt({ hash: tx })
    expect(receipt.gasUsed).toBeGreaterThan(21_000n)
    expect(receipt.effectiveGasPrice).toBeGreaterThan(0n)
    const row = sqliteOf(s.booted)
      .ledger.byState(['settled'])
      .find((x) => x.tx_hash === tx)!
    expect([BigInt(row.gas_used!), BigInt(row.gas_price!)]).toEqual([receipt.gasUsed, receipt.effectiveGasPrice])
    expected += receipt.gasUsed * receipt.effectiveGasPrice
  }
  const stats = (await (await fetch(s.url + '/stats')).json()) as any
  const usd = (Number(expected) / 1e18) * ETH_USD
  expect(stats.totals.gas_wei).toBe(expected.toString())
  expect(stats.totals.gas_usd).toBeCloseTo(usd, 9)
  expect(stats.days.at(-1).gas_wei).toBe(expected.toString())
  expect(stats.services.find((x: any) => x.slug === 'test-echo')).toMatchObject({
    gas_wei: expected.toString(),
    paid_calls: 2,
    revenue_atomic: '8400',
  })
  const today = (await (await fetch(s.url + '/stats/today')).json()) as any
  expect(today.totals.gas_wei).toBe(expected.toString())
  // money exact: /stats revenue = ledger settled total = payee's on-chain delta
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - before
  expect(delta).toBe(8400n)
  expect(BigInt(today.totals.revenue_atomic)).toBe(delta)
  expect(sqliteOf(s.booted).ledger.settledTotal()).toBe(delta)
})

test('without ETH_USD gas is reported in wei only; with a rate that makes gas dearer than a price, the boot warns', async () => {
  const logs: string[] = []
  const path = s.booted.config.databasePath
  const again = async (ethUsd?: string) =>
    boot({
      env: {
        PATH: process.env.PATH,
        DATABASE_PATH: path,
        PAY_TO: chain.payee.address,
        ...(ethUsd ? { ETH_USD: ethUsd } : {}),
      },
      entries: withEcho(),
      upstreams,
      categories,
      facilitator: createLocalFacilitator({
        rpcUrl: chain.rpcUrl,
        settlerKey: chain.settler.privateKey as Hex,
        chainId: 8453,
      }),
      log: createLogger('info', (l) => logs.push(l)),
      reconcileEveryMs: 3_600_000,
    })
  const cost = sqliteOf(s.booted).ledger.averageSettlementCost(0)!
  // a rate at which one settlement costs 0.005 USD: test-echo (0.0042) loses money, test-explain quick (0.01) does not
  const rate = 0.005 / (Number(cost) / 1e18)
  const b = await again(String(rate))
  const warned = logs
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === 'service price is below the average settlement cost')
  expect(warned.map((l) => l.slug)).toContain('test-echo')
  expect(warned.map((l) => l.slug)).not.toContain('test-explain')
  expect(warned.find((l) => l.slug === 'test-echo').settlement_cost_usd).toBeCloseTo(0.005, 6)
  await b.close()
  sqliteOf(b).db.close()
  logs.length = 0
  const c = await again()
  expect(logs.some((l) => l.includes('below the average settlement cost'))).toBe(false)
  const app = c.app.listen({ port: 0, hostname: '127.0.0.1' })
  const stats = (await (await fetch(`http://127.0.0.1:${app.server!.port}/stats`)).json()) as any
  expect(stats.totals.gas_usd).toBeNull()
  expect(BigInt(stats.totals.gas_wei)).toBeGreaterThan(0n)
  await app.stop(true)
  await c.close()
  sqliteOf(c).db.close()
})
