/**
 * Books equal the chain after a crash: 24 concurrent paid calls by the official client against a real server
 * process, SIGKILL right after the last answer, restart on the same database. /stats revenue comes from the
 * ledger's settled rows, so nothing buffered in memory can be lost.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { paymentRows, startServerProcess } from '../support/server-process'
import { payingFetch } from '../support/paying-fetch'

let chain: DevChain
let dir: string
beforeAll(async () => {
  chain = await startDevChain()
  dir = mkdtempSync(join(tmpdir(), 'crash-stats-'))
})
afterAll(async () => {
  await chain?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const start = () =>
  startServerProcess({
    DATABASE_PATH: join(dir, 'db.sqlite'),
    INVALID_PAYMENT_LIMIT: '0',
    RPC_URL: chain.rpcUrl,
    SETTLER_PRIVATE_KEY: chain.settler.privateKey,
    PAY_TO: chain.payee.address,
  })
const settledTotal = () =>
  paymentRows(join(dir, 'db.sqlite'))
    .filter((r) => r.state === 'settled')
    .reduce((s, r) => s + BigInt(r.amount), 0n)

test('kill -9 right after 24 concurrent paid answers: after restart /stats revenue = ledger = payee on-chain delta', async () => {
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  let s = await start()
  const pay = payingFetch(chain.payer.privateKey as Hex)
  const url = `http://127.0.0.1:${s.port}/api/v1/slugify`
  const answers = await Promise.all(
    Array.from({ length: 24 }, (_, i) =>
      pay(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `crash ${i}` }),
      }).then((r) => r.status),
    ),
  )
  process.kill(s.pid, 'SIGKILL')
  expect(answers).toEqual(Array(24).fill(200))
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - before
  expect(delta).toBe(24n * 1000n)
  s = await start()
  try {
    const today = (await (await fetch(`http://127.0.0.1:${s.port}/stats/today`)).json()) as any
    const slug = today.services.find((x: any) => x.slug === 'slugify')
    expect(slug).toMatchObject({ paid_calls: 24, revenue_atomic: String(delta) })
    expect(BigInt(today.totals.revenue_atomic)).toBe(delta)
    expect(BigInt(Math.round(today.totals.revenue_usd * 1e6))).toBe(delta)
    expect(settledTotal()).toBe(delta)
    const all = (await (await fetch(`http://127.0.0.1:${s.port}/stats`)).json()) as any
    expect(BigInt(all.totals.revenue_atomic)).toBe(delta)
    // the settlement gas of each call was recorded with its row, before the answer
    expect(BigInt(slug.gas_wei)).toBeGreaterThan(0n)
  } finally {
    await s.stop()
  }
}, 120_000)
