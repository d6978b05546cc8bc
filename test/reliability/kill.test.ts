/**
 * Fault injection with a real process and a real chain: the server is SIGKILLed during settlement (after the
 * transaction was sent) and between the handler and settlement; after a restart the ledger reconciles against
 * the chain: nothing settled goes unrecorded, nothing is settled twice, nothing unsent is charged.
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
import { signPayment } from '../support/pay'
import { until } from '../support/until'
import { post, requirementsAt } from '../support/server'
import { rpc } from '../settle/helpers'

let chain: DevChain
let proxy: FaultProxy
let dir: string
beforeAll(async () => {
  chain = await startDevChain()
  proxy = startFaultProxy(chain.rpcUrl)
  dir = mkdtempSync(join(tmpdir(), 'kill-'))
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
  })
const kill = async (c: Child) => {
  process.kill(c.pid, 'SIGKILL')
  await Bun.sleep(50)
}
const rows = () => paymentRows(join(dir, 'db.sqlite'))

test('killed after the transfer was sent: reconciled as settled once after restart', async () => {
  let s = await start()
  const url = `http://127.0.0.1:${s.port}/api/v1/slugify`
  const req = await requirementsAt(url)
  const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req })
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  proxy.calls.clear()
  // the node mines the transfer at once; every answer that would tell the server so is late
  for (const m of MINED_ANSWERS) proxy.delayOut.set(m, 10_000)
  const inflight = post(url, { text: 'killed mid-settlement' }, { 'payment-signature': header }).catch((e) => e)
  const t0 = Date.now()
  while ((await usdcBalance(chain.rpcUrl, chain.payee.address)) === before) {
    if (Date.now() - t0 > 10_000) throw new Error('the transfer was never mined')
    await Bun.sleep(10)
  }
  // the hash is recorded once the send was handed to the node: wait for it, so the kill lands after the broadcast
  await until(() => !!rows().at(-1)?.tx_hash)
  await kill(s)
  expect(await inflight).toBeInstanceOf(Error)
  proxy.delayOut.clear()
  expect(rows().at(-1)).toMatchObject({ state: 'settling' })
  expect(rows().at(-1)!.tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
  s = await start()
  try {
    expect(rows().at(-1)).toMatchObject({ state: 'settled', amount: '1000' })
    expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(1000n)
    const stats = (await (await fetch(`http://127.0.0.1:${s.port}/stats/today`)).json()) as any
    expect(stats.totals.revenue_usd).toBe(0.001)
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
  let s = await start()
  const url = `http://127.0.0.1:${s.port}/api/v1/slugify`
  const req = await requirementsAt(url)
  const validBefore = Math.floor(Date.now() / 1000) + 8
  const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req, validBefore })
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  proxy.calls.clear()
  // the signed transfer is on its way to the node but never arrives (held, then a gateway error)
  for (const m of SEND_METHODS) {
    proxy.delayIn.set(m, 10_000)
    proxy.faults.set(m, { http: 502, times: 100 })
  }
  const inflight = post(url, { text: 'killed before settlement' }, { 'payment-signature': header }).catch((e) => e)
  await until(() => proxy.sends() >= 1)
  await kill(s)
  await inflight
  const id = rows().at(-1)!.id
  // the hash of a transaction the node never saw: reconciliation must not trust it
  expect(rows().at(-1)).toMatchObject({ state: 'settling' })
  proxy.delayIn.clear()
  proxy.faults.clear()
  s = await start()
  await s.stop()
  expect(rows().find((r) => r.id === id)).toMatchObject({ state: 'settling' })
  await until(() => Date.now() / 1000 > validBefore + 1, 15_000)
  // a block past validBefore (on Base one comes every 2 s; this chain mines on demand): no later block can use it
  await rpc(chain.rpcUrl, 'evm_mine')
  s = await start()
  try {
    expect(rows().find((r) => r.id === id)).toMatchObject({ state: 'failed' })
    expect(await usdcBalance(chain.rpcUrl, chain.payee.address)).toBe(before)
    expect(((await (await fetch(`http://127.0.0.1:${s.port}/stats/today`)).json()) as any).totals.paid_calls).toBe(1)
  } finally {
    await s.stop()
  }
}, 60_000)
