/**
 * Every built deterministic utility, paid through the real route on a real chain with its published example:
 * 200, an answer that matches the declared output schema, a successful PAYMENT-RESPONSE, and exactly the price moved.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { entries } from '../support/entries'
import { issues } from '../../runtime/input/validate'
import { decodeB64Json, post, type TestServer, requirementsAt } from '../support/server'
import { startServerOnChain } from '../support/on-chain'
import { signPayment } from '../support/pay'

let chain: DevChain
let s: TestServer
beforeAll(async () => {
  chain = await startDevChain({ payerUsdc: 10_000_000_000n })
  s = await startServerOnChain(chain, {
    env: { INVALID_PAYMENT_LIMIT: '0' },
  })
})
afterAll(async () => {
  await s?.stop()
  await chain?.stop()
})

const paidable = entries.filter((e) => e.handler && !e.manifest.needs?.length && e.manifest.examples?.length)

test(`${paidable.length} utilities answer their examples through the paid route`, async () => {
  const failures: string[] = []
  let expected = 0n
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  for (const e of paidable) {
    const path = `/api/v1/${e.folder}`
    const req = await requirementsAt(s.url + path)
    const r = await post(s.url + path, e.manifest.examples[0].input, {
      'payment-signature': await signPayment({ key: chain.payer.privateKey as Hex, requirements: req }),
    })
    const body = await r.json()
    if (r.status !== 200) {
      failures.push(`${e.folder}: ${r.status} ${JSON.stringify(body).slice(0, 160)}`)
      continue
    }
    const bad = issues(e.manifest.output, body)
    if (bad.length) failures.push(`${e.folder}: output ${bad[0].path} ${bad[0].message}`)
    if (!decodeB64Json(r.headers.get('payment-response'))?.success)
      failures.push(`${e.folder}: settlement not confirmed`)
    expected += BigInt(req.amount)
  }
  expect(failures).toEqual([])
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(expected)
  expect(paidable.length).toBeGreaterThan(60)
}, 300_000)
