/**
 * kill -9 on an MPP-paid call (runtime/pay/schemes/mpp), with a real server process and a real chain, as
 * test/reliability/kill.test.ts does for x402's `exact`: the server verified the `Authorization: Payment`
 * credential, ran the handler and is settling when it is killed. After a restart the ledger agrees with the chain:
 * a transfer that was sent is booked once (and /stats counts it), one that never reached the node is not; the used
 * credential is refused (MPP's invalid-challenge), never settled again.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import type { Child } from '../../bench/lib'
import { paymentRows, startServerProcess } from '../support/server-process'
import { MINED_ANSWERS, SEND_METHODS, startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { mppClient } from '../support/mpp'
import { until } from '../support/until'
import { post } from '../support/server'

let chain: DevChain
let proxy: FaultProxy
let dir: string
beforeAll(async () => {
  chain = await startDevChain()
  proxy = startFaultProxy(chain.rpcUrl)
  dir = mkdtempSync(join(tmpdir(), 'mpp-kill-'))
})
afterAll(async () => {
  proxy?.stop()
  await chain?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const start = () =>
  startServerProcess({
    DATABASE_PATH: join(dir, 'db.sqlite'),
    RPC_URL: proxy.url,
    SETTLER_PRIVATE_KEY: chain.settler.privateKey,
    PAY_TO: chain.payee.address,
    MPP_SECRET_KEY: 'mpp-kill-test-secret-0123456789abcdefghij',
  })
const kill = async (c: Child) => {
  process.kill(c.pid, 'SIGKILL')
  await Bun.sleep(50)
}
const rows = () => paymentRows(join(dir, 'db.sqlite'))
const stats = async (port: number) =>
  ((await (await fetch(`http://127.0.0.1:${port}/stats/today`)).json()) as any).totals
/** A fresh MPP credential for slugify on the server at `port` (mppx's client on the 402 it gets). */
const credentialAt = async (port: number) =>
  mppClient(chain.payer.privateKey as Hex).mppx.createCredential(
    await post(`http://127.0.0.1:${port}/api/v1/slugify`, {}),
  )

test('killed after the MPP-paid transfer was sent: booked once after restart (ledger = /stats = chain), the credential refused again', async () => {
  let s = await start()
  const url = `http://127.0.0.1:${s.port}/api/v1/slugify`
  const authorization = await credentialAt(s.port)
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  proxy.calls.clear()
  // the node mines the transfer at once; every answer that would tell the server so is late
  for (const m of MINED_ANSWERS) proxy.delayOut.set(m, 10_000)
  const inflight = post(url, { text: 'killed mid-settlement' }, { authorization }).catch((e) => e)
  await until(
    async () => (await usdcBalance(chain.rpcUrl, chain.payee.address)) !== before,
    10_000,
    'the transfer mined',
  )
  await until(() => !!rows().at(-1)?.tx_hash)
  await kill(s)
  expect(await inflight).toBeInstanceOf(Error)
  proxy.delayOut.clear()
  expect(rows().at(-1)).toMatchObject({ state: 'settling' })
  s = await start()
  try {
    expect(rows().at(-1)).toMatchObject({ state: 'settled', amount: '1000' })
    const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - before
    expect(delta).toBe(1000n)
    expect(BigInt((await stats(s.port)).revenue_atomic)).toBe(delta)
    const replay = await post(`http://127.0.0.1:${s.port}/api/v1/slugify`, { text: 'again' }, { authorization })
    expect(replay.status).toBe(402)
    expect(((await replay.json()) as any).type).toBe('https://paymentauth.org/problems/invalid-challenge')
    expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(1000n)
  } finally {
    await s.stop()
  }
}, 60_000)

test('killed between verification and a transfer that never reached the node: nothing booked, nothing moved', async () => {
  let s = await start()
  const url = `http://127.0.0.1:${s.port}/api/v1/slugify`
  const authorization = await credentialAt(s.port)
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const revenueBefore = BigInt((await stats(s.port)).revenue_atomic)
  proxy.calls.clear()
  // the signed transfer is on its way to the node but never arrives (held, then a gateway error)
  for (const m of SEND_METHODS) {
    proxy.delayIn.set(m, 10_000)
    proxy.faults.set(m, { http: 502, times: 100 })
  }
  const inflight = post(url, { text: 'killed before settlement' }, { authorization }).catch((e) => e)
  await until(() => proxy.sends() >= 1)
  await kill(s)
  await inflight
  const id = rows().at(-1)!.id
  proxy.delayIn.clear()
  proxy.faults.clear()
  s = await start()
  try {
    // not settled (the authorization is still valid: reconciliation waits for the chain), not counted, not moved
    expect(rows().find((r) => r.id === id)?.state).not.toBe('settled')
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
    expect(BigInt((await stats(s.port)).revenue_atomic)).toBe(revenueBefore)
  } finally {
    await s.stop()
  }
}, 60_000)
