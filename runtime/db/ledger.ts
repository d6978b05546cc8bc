import type { Database } from 'bun:sqlite'

/**
 * reserved -> verified -> settling -> settled | pending | failed; reserved/verified -> released (handler failed
 * or payment invalid: the authorization may be used again) or failed.
 */
export type PaymentState = 'reserved' | 'verified' | 'settling' | 'pending' | 'settled' | 'failed' | 'released'

export interface PaymentRow {
  id: number
  payer: string
  nonce: string
  slug: string
  tier: string
  amount: string
  network: string
  state: PaymentState
  tx_hash: string | null
  reason: string | null
  request_id: string
  valid_before: number
  x402_version: number
  payload: string
  requirements: string
  created_at: number
  updated_at: number
}

export interface Reservation {
  payer: string
  nonce: string
  slug: string
  tier: string
  amount: string
  network: string
  requestId: string
  validBefore: number
  x402Version: number
  payload: unknown
  requirements: unknown
}

/** The payment ledger: one row per attempt, with every transition in payment_events. */
export class Ledger {
  private insert
  private update
  private event
  private byId
  private byStateQ
  private settleQ

  constructor(private db: Database, private now = () => Date.now()) {
    this.insert = db.prepare(
      `INSERT OR IGNORE INTO payments (payer, nonce, slug, tier, amount, network, state, request_id, valid_before, x402_version, payload, requirements, created_at, updated_at)
       VALUES ($payer, $nonce, $slug, $tier, $amount, $network, 'reserved', $requestId, $validBefore, $x402Version, $payload, $requirements, $now, $now)`,
    )
    // `settled` is terminal: a late transition (e.g. the tx-hash callback after a reconciliation) never reopens it.
    this.update = db.prepare(`UPDATE payments SET state = $state, tx_hash = COALESCE($tx, tx_hash), reason = COALESCE($reason, reason), updated_at = $now WHERE id = $id AND state <> 'settled'`)
    this.event = db.prepare(`INSERT INTO payment_events (payment_id, state, detail, at) VALUES (?, ?, ?, ?)`)
    this.byId = db.prepare(`SELECT * FROM payments WHERE id = ?`)
    this.settleQ = db.prepare(`UPDATE payments SET state = 'settled', tx_hash = COALESCE($tx, tx_hash), reason = COALESCE($reason, reason), updated_at = $now WHERE id = $id AND state <> 'settled'`)
    this.byStateQ = db.prepare(`SELECT * FROM payments WHERE state IN (SELECT value FROM json_each(?)) ORDER BY id`)
  }

  /**
   * Atomically reserves one authorization (payer, nonce). Returns the row id, or null when the same
   * authorization is already reserved, in flight, settled or failed.
   */
  reserve(r: Reservation): number | null {
    return this.db.transaction(() => {
      const res = this.insert.run({
        payer: r.payer.toLowerCase(), nonce: r.nonce.toLowerCase(), slug: r.slug, tier: r.tier, amount: r.amount, network: r.network,
        requestId: r.requestId, validBefore: r.validBefore, x402Version: r.x402Version,
        payload: JSON.stringify(r.payload), requirements: JSON.stringify(r.requirements), now: this.now(),
      })
      if (res.changes !== 1) return null
      const id = Number(res.lastInsertRowid)
      this.event.run(id, 'reserved', null, this.now())
      return id
    })()
  }

  /** Moves a payment to `state`, recording the transition. */
  transition(id: number, state: PaymentState, detail: { tx?: string; reason?: string } = {}): void {
    this.db.transaction(() => {
      if (this.update.run({ id, state, tx: detail.tx ?? null, reason: detail.reason ?? null, now: this.now() }).changes !== 1) return
      this.event.run(id, state, detail.reason ?? detail.tx ?? null, this.now())
    })()
  }

  /**
   * Marks a payment settled exactly once: true when this call made the change (count the revenue then), false
   * when it was already settled (by a concurrent reconciliation, say).
   */
  settleOnce(id: number, detail: { tx?: string; reason?: string } = {}): boolean {
    return this.db.transaction(() => {
      const r = this.settleQ.run({ id, tx: detail.tx ?? null, reason: detail.reason ?? null, now: this.now() })
      if (r.changes !== 1) return false
      this.event.run(id, 'settled', detail.reason ?? detail.tx ?? null, this.now())
      return true
    })()
  }

  get(id: number): PaymentRow | null {
    return this.byId.get(id) as PaymentRow | null
  }

  byState(states: PaymentState[]): PaymentRow[] {
    return this.byStateQ.all(JSON.stringify(states)) as PaymentRow[]
  }

  /** Sum of settled amounts (atomic units). */
  settledTotal(): bigint {
    const rows = this.db.query(`SELECT amount FROM payments WHERE state = 'settled'`).all() as { amount: string }[]
    return rows.reduce((s, r) => s + BigInt(r.amount), 0n)
  }

  events(id: number): Array<{ state: string; detail: string | null }> {
    return this.db.query(`SELECT state, detail FROM payment_events WHERE payment_id = ? ORDER BY rowid`).all(id) as never
  }
}
