import { ledgerKey } from '../shared'
import type { Database } from 'bun:sqlite'
import { beforeDurable } from './connect'
import type { KeepInput, ResultLimits, ResultStoreLike, StoredResult } from '../store'

const JOINED = `SELECT r.*, p.state, p.tx_hash, p.network, p.payload FROM paid_results r JOIN payments p ON p.id = r.payment_id`
const DEAD = `('failed', 'released')`

/**
 * Paid results kept for collection again: one row per payment whose handler succeeded (body + receipt), plus
 * payment-identifier claims of payments still in flight. Bounded by size (per body and in total) and by time.
 * A row is only ever served while its payment is `settled` (the join); rows of failed or released payments are
 * deleted by `discard` and `purge`. Bodies are buffered for `flushMs` and written in batches, and always before the
 * ledger's next durable commit: a crash can lose the results of the last few milliseconds of calls that have not
 * reached settlement (never a payment: the ledger is written at once).
 */
export class ResultStore implements ResultStoreLike {
  private total = 0
  private q
  private buffer = new Map<number, { k: KeepInput; body: string | null; receipt: string | null }>()
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private db: Database,
    private limits: ResultLimits,
    private nowS = () => Math.floor(Date.now() / 1000),
  ) {
    this.q = {
      byAuth: db.prepare(
        `${JOINED} WHERE r.payer = ? AND r.nonce = ? AND p.network = ? AND p.state NOT IN ${DEAD} ORDER BY r.payment_id DESC LIMIT 1`,
      ),
      byKey: db.prepare(`${JOINED} WHERE r.payer = ? AND r.payment_key = ?`),
      insert: db.prepare(
        `INSERT INTO paid_results (payment_id, payer, nonce, payment_key, request_hash, expires_at, created_at, size, body)
         VALUES ($id, $payer, $nonce, $key, $hash, $expires, $now, $size, $body)
         ON CONFLICT (payment_id) DO UPDATE SET body = excluded.body, size = excluded.size`,
      ),
      receipt: db.prepare(`UPDATE paid_results SET receipt = ? WHERE payment_id = ?`),
      remove: db.prepare(`DELETE FROM paid_results WHERE payment_id = ? RETURNING size`),
      oldest: db.prepare(`SELECT payment_id, size FROM paid_results WHERE size > 0 ORDER BY payment_id LIMIT 64`),
      dropBody: db.prepare(`UPDATE paid_results SET body = NULL, size = 0 WHERE payment_id = ?`),
      sum: db.prepare(`SELECT COALESCE(SUM(size), 0) AS total FROM paid_results`),
    }
    this.total = this.sumSizes()
    // A body kept for a payment is on disk before that payment's durable `settling` commit (runtime/db/sqlite/connect.ts),
    // so a caller whose answer was lost can still collect it after a power cut.
    beforeDurable(db, () => this.flush())
  }

  /** Bytes of kept bodies. */
  get totalBytes(): number {
    this.flush()
    return this.total
  }

  /** Writes buffered bodies in one transaction, then enforces the total cap. */
  flush(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    if (!this.buffer.size) return
    const batch = this.buffer
    this.buffer = new Map()
    this.db.transaction(() => {
      for (const b of batch.values()) {
        this.write(b.k, b.body)
        if (b.receipt !== null) this.q.receipt.run(b.receipt, b.k.paymentId)
        if (b.body !== null) this.total += Buffer.byteLength(b.body)
      }
    })()
    if (this.total > this.limits.maxTotalBytes) this.evict()
  }

  private schedule(): void {
    const ms = this.limits.flushMs ?? 50
    if (ms <= 0) return this.flush()
    if (this.timer) return
    this.timer = setTimeout(() => {
      try {
        this.flush()
      } catch {
        /* results of this batch are lost; payments are unaffected */
      }
    }, ms)
    this.timer.unref?.()
  }

  /** Writes what is buffered and stops the timer. */
  close(): void {
    this.flush()
  }

  private sumSizes(): number {
    return (this.q.sum.get() as { total: number }).total
  }

  /** The live (unexpired, not failed/released) row of an authorization, if any (an expired one is deleted on read). */
  byAuthorization(network: string, payer: string, nonce: string): StoredResult | null {
    this.flush()
    const row = this.q.byAuth.get(ledgerKey(payer), ledgerKey(nonce), network) as StoredResult | null
    if (row && row.expires_at < this.nowS()) {
      this.discard(row.payment_id)
      return null
    }
    return row
  }

  /** The live row holding a payer's payment identifier, if any (a dead or expired one is deleted on read). */
  byKey(payer: string, key: string): StoredResult | null {
    this.flush()
    const row = this.q.byKey.get(ledgerKey(payer), key) as StoredResult | null
    if (!row) return null
    if (row.expires_at < this.nowS() || row.state === 'failed' || row.state === 'released') {
      this.discard(row.payment_id)
      return null
    }
    return row
  }

  /**
   * Claims a payment identifier for a reserved payment, atomically. Returns null when this payment now holds the
   * key, or the live row that already holds it.
   */
  claim(k: KeepInput & { key: string }): StoredResult | null {
    this.flush()
    return this.db.transaction(() => {
      const held = this.byKey(k.payer, k.key)
      if (held) return held
      this.write(k, null)
      return null
    })()
  }

  /** Keeps a 200 body for a payment (before it settles). Returns false when the body is too large to keep. */
  keep(k: KeepInput, body: string): boolean {
    const size = Buffer.byteLength(body)
    const fits = size <= this.limits.maxBodyBytes
    // Too large: a claim row stays (without a body) so the identifier still cannot be paid twice.
    if (!fits && !k.key) return false
    this.buffer.set(k.paymentId, { k, body: fits ? body : null, receipt: null })
    this.schedule()
    return fits
  }

  private write(k: KeepInput, body: string | null): void {
    this.q.insert.run({
      id: k.paymentId,
      payer: ledgerKey(k.payer),
      nonce: ledgerKey(k.nonce),
      key: k.key,
      hash: k.requestHash,
      expires: k.expiresAt,
      now: this.nowS(),
      size: body === null ? 0 : Buffer.byteLength(body),
      body,
    })
  }

  /** Records the receipt header value sent with the first answer. */
  setReceipt(paymentId: number, receipt: string): void {
    const b = this.buffer.get(paymentId)
    if (b) b.receipt = receipt
    else this.q.receipt.run(receipt, paymentId)
  }

  /** Deletes a payment's row (its handler failed, the caller left, or its settlement failed). */
  discard(paymentId: number): void {
    this.buffer.delete(paymentId)
    const r = this.q.remove.get(paymentId) as { size: number } | null
    if (r) this.total -= r.size
  }

  /** Drops the oldest bodies until the total is under 90% of the cap (rows stay: an identifier is never paid twice). */
  private evict(): void {
    const target = this.limits.maxTotalBytes * 0.9
    this.db.transaction(() => {
      while (this.total > target) {
        const rows = this.q.oldest.all() as { payment_id: number; size: number }[]
        if (!rows.length) break
        for (const r of rows) {
          if (this.total <= target) break
          this.q.dropBody.run(r.payment_id)
          this.total -= r.size
        }
      }
    })()
  }

  /** Deletes expired rows and rows of failed or released payments. Returns the number deleted. */
  purge(): number {
    this.flush()
    const n = this.db.transaction(() => {
      const expired = this.db.prepare(`DELETE FROM paid_results WHERE expires_at < ?`).run(this.nowS()).changes
      const dead = this.db
        .prepare(
          `DELETE FROM paid_results WHERE payment_id IN (SELECT r.payment_id FROM paid_results r JOIN payments p ON p.id = r.payment_id WHERE p.state IN ${DEAD})`,
        )
        .run().changes
      return expired + dead
    })()
    this.total = this.sumSizes()
    return n
  }
}
