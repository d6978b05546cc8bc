import { ledgerKey } from '../shared'
import type { SQL } from 'bun'
import type { KeepInput, ResultLimits, ResultStoreLike, StoredResult } from '../store'

const DEAD = ['failed', 'released']

function toResult(r: Record<string, unknown>): StoredResult {
  return { ...r, payment_id: Number(r.payment_id), expires_at: Number(r.expires_at) } as unknown as StoredResult
}

/**
 * Kept paid results on Postgres (same rules as runtime/db/sqlite/results.ts, shared by every instance): written at once
 * (no batching: another instance may be asked for it next), capped per body; past the total cap the oldest bodies
 * are dropped by `purge` (rows stay, so an identifier is never paid twice).
 */
export class PgResultStore implements ResultStoreLike {
  constructor(
    private sql: SQL,
    private limits: ResultLimits,
    private nowS = () => Math.floor(Date.now() / 1000),
  ) {}

  private async one(rows: Record<string, unknown>[]): Promise<StoredResult | null> {
    return rows.length ? toResult(rows[0]) : null
  }

  async byAuthorization(network: string, payer: string, nonce: string): Promise<StoredResult | null> {
    const row = await this.one(
      await this.sql`
      SELECT r.*, p.state, p.tx_hash, p.network, p.payload FROM paid_results r JOIN payments p ON p.id = r.payment_id
      WHERE r.payer = ${ledgerKey(payer)} AND r.nonce = ${ledgerKey(nonce)} AND p.network = ${network}
        AND p.state NOT IN ('failed', 'released')
      ORDER BY r.payment_id DESC LIMIT 1`,
    )
    if (row && row.expires_at < this.nowS()) {
      await this.discard(row.payment_id)
      return null
    }
    return row
  }

  async byKey(payer: string, key: string): Promise<StoredResult | null> {
    const row = await this.one(
      await this.sql`
      SELECT r.*, p.state, p.tx_hash, p.network, p.payload FROM paid_results r JOIN payments p ON p.id = r.payment_id
      WHERE r.payer = ${ledgerKey(payer)} AND r.payment_key = ${key}`,
    )
    if (!row) return null
    if (row.expires_at < this.nowS() || DEAD.includes(row.state)) {
      await this.discard(row.payment_id)
      return null
    }
    return row
  }

  /** Claims the identifier with one INSERT against the unique (payer, payment_key) index; else the holder's row. */
  async claim(k: KeepInput & { key: string }): Promise<StoredResult | null> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const held = await this.byKey(k.payer, k.key) // also deletes a dead holder, so the key can be claimed again
      if (held) return held
      const ins = await this.sql`
        INSERT INTO paid_results (payment_id, payer, nonce, payment_key, request_hash, expires_at, created_at, size, body)
        VALUES (${k.paymentId}::bigint, ${ledgerKey(k.payer)}, ${ledgerKey(k.nonce)}, ${k.key}, ${k.requestHash}, ${k.expiresAt}::bigint, ${this.nowS()}::bigint, 0, NULL)
        ON CONFLICT DO NOTHING RETURNING payment_id`
      if (ins.length) return null
    }
    const held = await this.byKey(k.payer, k.key)
    if (held) return held
    throw new Error('payment identifier claim did not settle')
  }

  async keep(k: KeepInput, body: string): Promise<boolean> {
    const size = Buffer.byteLength(body)
    const fits = size <= this.limits.maxBodyBytes
    if (!fits && !k.key) return false
    const b = fits ? body : null
    await this.sql`
      INSERT INTO paid_results (payment_id, payer, nonce, payment_key, request_hash, expires_at, created_at, size, body)
      VALUES (${k.paymentId}::bigint, ${ledgerKey(k.payer)}, ${ledgerKey(k.nonce)}, ${k.key}, ${k.requestHash}, ${k.expiresAt}::bigint, ${this.nowS()}::bigint, ${fits ? size : 0}::int, ${b})
      ON CONFLICT (payment_id) DO UPDATE SET body = excluded.body, size = excluded.size`
    return fits
  }

  async setReceipt(paymentId: number, receipt: string): Promise<void> {
    await this.sql`UPDATE paid_results SET receipt = ${receipt} WHERE payment_id = ${paymentId}::bigint`
  }

  async discard(paymentId: number): Promise<void> {
    await this.sql`DELETE FROM paid_results WHERE payment_id = ${paymentId}::bigint`
  }

  /** Deletes expired rows and rows of failed or released payments, then drops the oldest bodies past the total cap. */
  async purge(): Promise<number> {
    const expired = await this.sql`DELETE FROM paid_results WHERE expires_at < ${this.nowS()}::bigint`
    const dead = await this
      .sql`DELETE FROM paid_results r USING payments p WHERE p.id = r.payment_id AND p.state IN ('failed', 'released')`
    await this.sql`
      UPDATE paid_results SET body = NULL, size = 0 WHERE payment_id IN (
        SELECT payment_id FROM (SELECT payment_id, SUM(size) OVER (ORDER BY payment_id DESC) AS newer FROM paid_results WHERE size > 0) x
        WHERE newer > ${Math.floor(this.limits.maxTotalBytes * 0.9)}::bigint)`
    return expired.count + dead.count
  }

  close(): void {}
}
