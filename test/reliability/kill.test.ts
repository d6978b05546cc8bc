/**
 * Fault injection with a real process and a real chain: the server is SIGKILLed during settlement (after the
 * transaction was sent) and between the handler and settlement; after a restart the ledger reconciles against
 * the chain: nothing settled goes unrecorded, nothing is settled twice, nothing unsent is charged.
 */
import { expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { evmCrashRig } from '../support/crash-restart'
import { signPayment } from '../support/pay'
import { until } from '../support/until'
import { post, requirementsAt } from '../support/server'
import { rpc } from '../settle/helpers'

const rig = evmCrashRig('kill')

test('killed after the transfer was sent: reconciled as settled once after restart', async () => {
  let s = await rig.start()
  const url = `http://127.0.0.1:${s.port}/api/v1/slugify`
  const req = await requirementsAt(url)
  const header = await signPayment({ key: rig.chain.payer.privateKey as Hex, requirements: req })
  const before = await rig.payee()
  await rig.killAfterMined(
    s,
    () => post(url, { text: 'killed mid-settlement' }, { 'payment-signature': header }),
    async () => (await rig.payee()) !== before,
  )
  expect(rig.rows().at(-1)).toMatchObject({ state: 'settling' })
  expect(rig.rows().at(-1)!.tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
  s = await rig.start()
  try {
    expect(rig.rows().at(-1)).toMatchObject({ state: 'settled', amount: '1000' })
    expect((await rig.payee()) - before).toBe(1000n)
    expect((await rig.stats(s)).totals.revenue_usd).toBe(0.001)
    expect(await rig.expectBooks(s)).toBe(1000n)
    const replay = await post(
      `http://127.0.0.1:${s.port}/api/v1/slugify`,
      { text: 'again' },
      { 'payment-signature': header },
    )
    expect(replay.status).toBe(402)
    expect(((await replay.json()) as any).reason).toBe('authorization_already_used')
  } finally {
    await s.stop()
  }
})

test('killed between the handler and the transfer: nothing moves, and the attempt fails once it expires', async () => {
  let s = await rig.start()
  const url = `http://127.0.0.1:${s.port}/api/v1/slugify`
  const req = await requirementsAt(url)
  const validBefore = Math.floor(Date.now() / 1000) + 8
  const header = await signPayment({ key: rig.chain.payer.privateKey as Hex, requirements: req, validBefore })
  const before = await rig.payee()
  // the signed transfer is on its way to the node but never arrives (held, then a gateway error)
  await rig.killBeforeNode(s, () => post(url, { text: 'killed before settlement' }, { 'payment-signature': header }))
  const id = rig.rows().at(-1)!.id
  // the hash of a transaction the node never saw: reconciliation must not trust it
  expect(rig.rows().at(-1)).toMatchObject({ state: 'settling' })
  s = await rig.start()
  await s.stop()
  expect(rig.rows().find((r) => r.id === id)).toMatchObject({ state: 'settling' })
  await until(() => Date.now() / 1000 > validBefore + 1, 15_000)
  // a block past validBefore (on Base one comes every 2 s; this chain mines on demand): no later block can use it
  await rpc(rig.chain.rpcUrl, 'evm_mine')
  s = await rig.start()
  try {
    expect(rig.rows().find((r) => r.id === id)).toMatchObject({ state: 'failed' })
    expect(await rig.payee()).toBe(before)
    expect((await rig.stats(s)).totals.paid_calls).toBe(1)
    await rig.expectBooks(s)
  } finally {
    await s.stop()
  }
}, 60_000)
