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
import { expect, test } from 'bun:test'
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Hex } from 'viem'
import { evmCrashRig } from '../support/crash-restart'
import { paymentRows, readDb, type PaymentRow } from '../support/server-process'
import { signPayment } from '../support/pay'
import { decodeB64Json, post, requirementsAt } from '../support/server'

const rig = evmCrashRig('power-cut')

/** The last payment row of the SQLite file at `path` (the rig's database or a probe copy of it). */
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
  const probe = join(dirname(path), 'probe.sqlite')
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
  let s = await rig.start()
  const url = () => `http://127.0.0.1:${s.port}/api/v1/slugify`
  const req = await requirementsAt(url())
  const header = await signPayment({ key: rig.chain.payer.privateKey as Hex, requirements: req })
  const before = await rig.payee()
  // the signed transfer reaches the node 3 s after it was sent: the server is dead by then
  await rig.killWhileSending(
    s,
    () => post(url(), { text: 'Power Cut' }, { 'payment-signature': header }),
    async () => (await rig.payee()) - before === 1000n,
  )

  // What survived the kill includes commits a power cut could have lost (the tx hash, at least)…
  const paidTx = lastPayment(rig.dbPath)!.tx_hash
  expect(paidTx).toMatch(/^0x[0-9a-f]{64}$/)
  // …so keep only what was fsync'd: the WAL up to the commit that entered `settling`.
  const lost = cutWalAfterFirst(rig.dbPath, (row) => row?.state === 'settling')
  expect(lost).toBeGreaterThanOrEqual(1)
  const cut = lastPayment(rig.dbPath)!
  expect(cut).toMatchObject({ state: 'settling', tx_hash: null, amount: '1000' })
  {
    // the kept result was written before that commit, so the fsync covered it
    const kept = readDb(
      rig.dbPath,
      (db) => db.query('SELECT body FROM paid_results WHERE payment_id = ?').get(cut.id) as { body: string } | null,
    )
    expect(JSON.parse(kept!.body)).toMatchObject({ slug: 'power-cut' })
  }

  s = await rig.start() // boot reconciliation: no hash, the AuthorizationUsed/Transfer logs prove the payment
  try {
    // settled with the transaction the logs name, recorded again
    expect(lastPayment(rig.dbPath)).toMatchObject({ id: cut.id, state: 'settled', amount: '1000', tx_hash: paidTx })
    expect((await rig.payee()) - before).toBe(1000n)
    expect((await rig.stats(s)).totals.revenue_atomic).toBe('1000')
    expect(await rig.expectBooks(s)).toBe(1000n)
    // the same payment again collects the kept result, and is not settled a second time
    const again = await post(url(), { text: 'Power Cut' }, { 'payment-signature': header })
    expect(again.status).toBe(200)
    expect(((await again.json()) as { slug: string }).slug).toBe('power-cut')
    expect(decodeB64Json(again.headers.get('payment-response'))).toMatchObject({ success: true, transaction: paidTx })
    expect((await rig.payee()) - before).toBe(1000n)
    // the authorization for another request is refused: used once, on chain
    const other = await post(url(), { text: 'something else' }, { 'payment-signature': header })
    expect(other.status).toBe(402)
    expect(await rig.expectBooks(s)).toBe(1000n)
  } finally {
    await s.stop()
  }
}, 120_000)
