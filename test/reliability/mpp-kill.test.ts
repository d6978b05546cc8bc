/**
 * kill -9 on an MPP-paid call (runtime/pay/schemes/mpp), with a real server process and a real chain, as
 * test/reliability/kill.test.ts does for x402's `exact`: the server verified the `Authorization: Payment`
 * credential, ran the handler and is settling when it is killed. After a restart the ledger agrees with the chain:
 * a transfer that was sent is booked once (and /stats counts it), one that never reached the node is not; the used
 * credential is refused (MPP's invalid-challenge), never settled again.
 */
import { expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { evmCrashRig } from '../support/crash-restart'
import { mppClient } from '../support/mpp'
import { post } from '../support/server'

const rig = evmCrashRig('mpp-kill', () => ({ MPP_SECRET_KEY: 'mpp-kill-test-secret-0123456789abcdefghij' }))

/** A fresh MPP credential for slugify on the server at `port` (mppx's client on the 402 it gets). */
const credentialAt = async (port: number) =>
  mppClient(rig.chain.payer.privateKey as Hex).mppx.createCredential(
    await post(`http://127.0.0.1:${port}/api/v1/slugify`, {}),
  )

test('killed after the MPP-paid transfer was sent: booked once after restart (ledger = /stats = chain), the credential refused again', async () => {
  let s = await rig.start()
  const url = `http://127.0.0.1:${s.port}/api/v1/slugify`
  const authorization = await credentialAt(s.port)
  const before = await rig.payee()
  await rig.killAfterMined(
    s,
    () => post(url, { text: 'killed mid-settlement' }, { authorization }),
    async () => (await rig.payee()) !== before,
  )
  expect(rig.rows().at(-1)).toMatchObject({ state: 'settling' })
  s = await rig.start()
  try {
    expect(rig.rows().at(-1)).toMatchObject({ state: 'settled', amount: '1000' })
    const delta = (await rig.payee()) - before
    expect(delta).toBe(1000n)
    expect(BigInt((await rig.stats(s)).totals.revenue_atomic)).toBe(delta)
    expect(await rig.expectBooks(s)).toBe(delta)
    const replay = await post(`http://127.0.0.1:${s.port}/api/v1/slugify`, { text: 'again' }, { authorization })
    expect(replay.status).toBe(402)
    expect(((await replay.json()) as any).type).toBe('https://paymentauth.org/problems/invalid-challenge')
    expect((await rig.payee()) - before).toBe(1000n)
  } finally {
    await s.stop()
  }
}, 60_000)

test('killed between verification and a transfer that never reached the node: nothing booked, nothing moved', async () => {
  let s = await rig.start()
  const url = `http://127.0.0.1:${s.port}/api/v1/slugify`
  const authorization = await credentialAt(s.port)
  const before = await rig.payee()
  const revenueBefore = BigInt((await rig.stats(s)).totals.revenue_atomic)
  // the signed transfer is on its way to the node but never arrives (held, then a gateway error)
  await rig.killBeforeNode(s, () => post(url, { text: 'killed before settlement' }, { authorization }))
  const id = rig.rows().at(-1)!.id
  s = await rig.start()
  try {
    // not settled (the authorization is still valid: reconciliation waits for the chain), not counted, not moved
    expect(rig.rows().find((r) => r.id === id)?.state).not.toBe('settled')
    expect(await rig.payee()).toBe(before)
    expect(BigInt((await rig.stats(s)).totals.revenue_atomic)).toBe(revenueBefore)
    await rig.expectBooks(s)
  } finally {
    await s.stop()
  }
}, 60_000)
