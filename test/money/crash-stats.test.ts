/**
 * Books equal the chain after a crash: 24 concurrent paid calls by the official client against a real server
 * process, SIGKILL right after the last answer, restart on the same database. /stats revenue comes from the
 * ledger's settled rows, so nothing buffered in memory can be lost.
 */
import { expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { evmCrashRig } from '../support/crash-restart'
import { payingFetch } from '../support/paying-fetch'

// straight to the chain (no faults here), and no invalid-payment throttle for the 24 concurrent payers
const rig = evmCrashRig('crash-stats', (rig) => ({ RPC_URL: rig.chain.rpcUrl, INVALID_PAYMENT_LIMIT: '0' }))

test('kill -9 right after 24 concurrent paid answers: after restart /stats revenue = ledger = payee on-chain delta', async () => {
  const before = await rig.payee()
  let s = await rig.start()
  const pay = payingFetch(rig.chain.payer.privateKey as Hex)
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
  await rig.kill(s)
  expect(answers).toEqual(Array(24).fill(200))
  const delta = (await rig.payee()) - before
  expect(delta).toBe(24n * 1000n)
  s = await rig.start()
  try {
    const today = await rig.stats(s)
    const slug = today.services.find((x: any) => x.slug === 'slugify')
    expect(slug).toMatchObject({ paid_calls: 24, revenue_atomic: String(delta) })
    expect(BigInt(today.totals.revenue_atomic)).toBe(delta)
    expect(BigInt(Math.round(today.totals.revenue_usd * 1e6))).toBe(delta)
    expect(rig.settled()).toBe(delta)
    expect(await rig.expectBooks(s)).toBe(delta) // /stats (all time) = the ledger = the payee's delta
    // the settlement gas of each call was recorded with its row, before the answer
    expect(BigInt(slug.gas_wei)).toBeGreaterThan(0n)
  } finally {
    await s.stop()
  }
}, 120_000)
