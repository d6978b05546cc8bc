/**
 * What keeping paid results costs a paid call: the kept-results table written in batches (as served) vs one write
 * per call, on an on-disk SQLite database with the server's settings (WAL, synchronous=NORMAL, the `settling`
 * commit fsync'd: runtime/db/sqlite/connect.ts). The ledger's own writes for one paid call (reserve, verified, settling,
 * settled) are the baseline.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../runtime/db/sqlite/connect'
import { Ledger } from '../runtime/db/sqlite/ledger'
import { ResultStore } from '../runtime/db/sqlite/results'
import { reservation } from '../test/support/reservation'

export async function resultWriteCost(n: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-results-'))
  try {
    const db = openDatabase(join(dir, 'db.sqlite'))
    const ledger = new Ledger(db)
    const body = JSON.stringify({ digest: 'ab'.repeat(32), algorithm: 'sha256', encoding: 'hex' })
    const ids: number[] = []
    const t = performance.now()
    for (let i = 0; i < n * 2; i++) {
      const id = ledger.reserve(reservation(i, { payer: '0x' + 'a'.repeat(40), slug: 'hash-digest' }))!
      ledger.transition(id, 'verified')
      await ledger.transition(id, 'settling')
      ledger.settleOnce(id)
      ids.push(id)
    }
    const ledgerMs = (performance.now() - t) / (n * 2)
    const time = (store: ResultStore, slice: number[]) => {
      const t0 = performance.now()
      for (const id of slice)
        store.keep(
          { paymentId: id, payer: '0x' + 'a'.repeat(40), nonce: 'n' + id, key: null, requestHash: 'h', expiresAt: 2e9 },
          body,
        )
      store.flush()
      return (performance.now() - t0) / slice.length
    }
    const direct = time(
      new ResultStore(db, { maxBodyBytes: 1 << 20, maxTotalBytes: 64 << 20, flushMs: 0 }),
      ids.slice(0, n),
    )
    // the batch timer never fires inside this synchronous loop: one flush at the end, as at high throughput
    const batched = time(new ResultStore(db, { maxBodyBytes: 1 << 20, maxTotalBytes: 64 << 20 }), ids.slice(n))
    db.close()
    return [
      '| writes per paid call | ms per paid call (event loop blocked) | vs the ledger |',
      '|---|---|---|',
      `| ledger (4 transactions, baseline) | ${ledgerMs.toFixed(3)} | 1x |`,
      `| kept result, one transaction per call | ${direct.toFixed(3)} | ${(direct / ledgerMs).toFixed(2)}x |`,
      `| kept result, batched (used) | ${batched.toFixed(4)} | **${(batched / ledgerMs).toFixed(4)}x** |`,
      '',
      `${n} paid calls each. Batched, the kept results add no disk flush of their own to a paid call (target ≤ 0.05x of the ledger).`,
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) for (const l of await resultWriteCost(Number(process.argv[2] ?? 300))) console.log(l)
