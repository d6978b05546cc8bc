/**
 * A power cut right after the one durable (fsync'd) commit of a paid call, the `settling` row written before the
 * transfer is broadcast. Real server process, real chain: the server is SIGKILLed while its transfer is on the way to
 * the node (held by the RPC proxy, which delivers it afterwards). A SIGKILL keeps every WAL commit, a power cut only
 * the fsync'd ones, so the database is then cut back to the state a power cut at that instant would leave at worst:
 * the WAL up to the commit that entered `settling` (SQLite replays a WAL prefix that ends on a commit frame; later
 * commits, made with synchronous=NORMAL, are exactly what a power cut may take). Restarted on that file, the boot
 * reconciliation must prove the payment from the token's logs without a tx hash, settle it once, and the caller must
 * collect the kept result with the same payment: books = chain, nothing charged twice, nothing lost.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { paymentRows, readDb, startServerProcess, type PaymentRow } from '../support/server-process'
import { SEND_METHODS, startFaultProxy, type FaultProxy } from '../support/rpc-faults'
import { signPayment } from '../support/pay'
import { until } from '../support/until'
import { decodeB64Json, post, requirementsAt } from '../support/server'

let chain: DevChain
let proxy: FaultProxy
let dir: string
beforeAll(async () => {
  chain = await startDevChain()
  proxy = startFaultProxy(chain.rpcUrl)
  dir = mkdtempSync(join(tmpdir(), 'power-cut-'))
})
afterAll(async () => {
  proxy?.stop()
  await chain?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const dbPath = () => join(dir, 'db.sqlite')
const start = () =>
  startServerProcess({
    DATABASE_PATH: dbPath(),
    RPC_URL: proxy.url,
    SETTLER_PRIVATE_KEY: chain.settler.privateKey,
    PAY_TO: chain.payee.address,
  })

const lastPayment = (path: string): PaymentRow | undefined => paymentRows(path).at(-1)

/** Byte offsets in a WAL file just after each commit frame (frame header bytes 4–7: database size, non-zero on commits). */
function commitEnds(wal: Buffer): number[] {
  const pageSize = wal.readUInt32BE(8)
  const frame = 24 + pageSize
  const ends: number[] = []
  for (let at = 32; at + frame <= wal.length; at += frame) if (wal.readUInt32BE(at + 4) !== 0) ends.push(at + frame)
  return ends
}

/**
 * Replaces the database at `path` by its state after the first commit where `done` holds: the main file plus the
 * WAL cut after that commit (the shared-memory index is dropped; SQLite rebuilds it from the WAL). Returns how many
 * commits were cut away.
 */
function cutWalAfterFirst(path: string, done: (row: PaymentRow | undefined) => boolean): number {
  const wal = readFileSync(path + '-wal')
  const ends = commitEnds(wal)
  const probe = join(dir, 'probe.sqlite')
  for (const [i, end] of ends.entries()) {
    for (const f of [probe, probe + '-wal', probe + '-shm']) rmSync(f, { force: true })
    copyFileSync(path, probe)
    writeFileSync(probe + '-wal', wal.subarray(0, end))
    if (done(lastPayment(probe))) {
      rmSync(path + '-shm', { force: true })
      writeFileSync(path + '-wal', wal.subarray(0, end))
      return ends.length - 1 - i
    }
  }
  throw new Error('no commit of the WAL reaches that state')
}

test('power cut right after the durable `settling` commit: reconciled from the chain, settled once, result collected', async () => {
  let s = await start()
  const url = () => `http://127.0.0.1:${s.port}/api/v1/slugify`
  const req = await requirementsAt(url())
  const header = await signPayment({ key: chain.payer.privateKey as Hex, requirements: req })
  const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
  // the signed transfer reaches the node 3 s after it was sent: the server is dead by then
  for (const m of SEND_METHODS) proxy.delayIn.set(m, 3_000)
  proxy.calls.clear()
  const inflight = post(url(), { text: 'Power Cut' }, { 'payment-signature': header }).catch((e) => e)
  // the `settling` row is written, then the transfer is signed and sent: kill once the send is on its way
  await until(
    () => lastPayment(dbPath())?.state === 'settling' && proxy.sends() >= 1,
    20_000,
    'the settling row and the send',
  )
  process.kill(s.pid, 'SIGKILL')
  expect(await inflight).toBeInstanceOf(Error) // no answer: the caller never got the result
  // the transfer lands anyway (it was broadcast before the cut)
  await until(
    async () => (await usdcBalance(chain.rpcUrl, chain.payee.address)) - before === 1000n,
    20_000,
    'the transfer',
  )
  proxy.delayIn.clear()

  // What survived the kill includes commits a power cut could have lost (the tx hash, at least)…
  const paidTx = lastPayment(dbPath())!.tx_hash
  expect(paidTx).toMatch(/^0x[0-9a-f]{64}$/)
  // …so keep only what was fsync'd: the WAL up to the commit that entered `settling`.
  const lost = cutWalAfterFirst(dbPath(), (row) => row?.state === 'settling')
  expect(lost).toBeGreaterThanOrEqual(1)
  const cut = lastPayment(dbPath())!
  expect(cut).toMatchObject({ state: 'settling', tx_hash: null, amount: '1000' })
  {
    // the kept result was written before that commit, so the fsync covered it
    const kept = readDb(
      dbPath(),
      (db) => db.query('SELECT body FROM paid_results WHERE payment_id = ?').get(cut.id) as { body: string } | null,
    )
    expect(JSON.parse(kept!.body)).toMatchObject({ slug: 'power-cut' })
  }

  s = await start() // boot reconciliation: no hash, the AuthorizationUsed/Transfer logs prove the payment
  try {
    // settled with the transaction the logs name, recorded again
    expect(lastPayment(dbPath())).toMatchObject({ id: cut.id, state: 'settled', amount: '1000', tx_hash: paidTx })
    expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(1000n)
    const today = (await (await fetch(`http://127.0.0.1:${s.port}/stats/today`)).json()) as any
    expect(today.totals.revenue_atomic).toBe('1000')
    // the same payment again collects the kept result, and is not settled a second time
    const again = await post(url(), { text: 'Power Cut' }, { 'payment-signature': header })
    expect(again.status).toBe(200)
    expect(((await again.json()) as { slug: string }).slug).toBe('power-cut')
    expect(decodeB64Json(again.headers.get('payment-response'))).toMatchObject({ success: true, transaction: paidTx })
    expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - before).toBe(1000n)
    // the authorization for another request is refused: used once, on chain
    const other = await post(url(), { text: 'something else' }, { 'payment-signature': header })
    expect(other.status).toBe(402)
  } finally {
    await s.stop()
  }
}, 120_000)
