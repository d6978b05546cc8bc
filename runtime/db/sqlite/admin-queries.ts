import type { Database } from 'bun:sqlite'
import { failuresFrom, moneyFromCells, toPayment, utcDay, windowStartMs } from '../shared'
import type { AdminPayment, AdminReads, Money, MoneyCell } from '../store'

type Row = Record<string, unknown>

/**
 * Read-only queries for the operator console over payments, payment_events, stats_daily and demo_quota.
 * Never returns the signed payload.
 */
export class AdminQueries implements AdminReads {
  private list
  private one
  private unsettled
  private moneyQ
  private released
  private quotaQ
  private eventsQ
  private countsQ

  constructor(
    db: Database,
    private now = () => new Date(),
  ) {
    // Only the columns the console shows: never payload/requirements (they hold the payer's signature).
    const select =
      'id, state, slug, tier, amount, payer, network, tx_hash, reason, request_id, created_at, updated_at, settled_at, gas_used, gas_price'
    this.list = db.prepare(
      `SELECT ${select} FROM payments WHERE ($state IS NULL OR state = $state) AND ($slug IS NULL OR slug = $slug) ORDER BY id DESC LIMIT $limit`,
    )
    this.one = db.prepare(`SELECT ${select} FROM payments WHERE id = ?`)
    this.unsettled = db.prepare(
      `SELECT ${select} FROM payments WHERE state IN ('settling', 'pending', 'failed') ORDER BY id DESC LIMIT 200`,
    )
    // One aggregation per (UTC day of settlement, service), over the same rows and expressions as /stats
    // (Ledger.settledByDay), plus what the average gas per service needs.
    this.moneyQ = db.prepare(
      `SELECT strftime('%Y-%m-%d', settled_at / 1000, 'unixepoch') AS day, network, slug, COUNT(*) AS settled,
              CAST(SUM(CAST(amount AS INTEGER)) AS TEXT) AS revenue_atomic,
              CAST(COALESCE(SUM(gas_used * gas_price), 0) AS TEXT) AS gas_wei,
              CAST(COALESCE(SUM(gas_used), 0) AS TEXT) AS gas_used, COUNT(gas_used) AS with_gas
       FROM payments INDEXED BY payments_settled WHERE state = 'settled' AND settled_at >= ?
       GROUP BY day, network, slug ORDER BY day, network, slug`,
    )
    this.released = db.prepare(
      `SELECT slug, reason, COUNT(*) AS n FROM payments WHERE state = 'released' AND updated_at >= ? GROUP BY slug, reason`,
    )
    this.quotaQ = db.prepare(
      `SELECT day, COUNT(*) AS clients, SUM(count) AS calls FROM demo_quota WHERE day >= ? GROUP BY day ORDER BY day`,
    )
    this.eventsQ = db.prepare(`SELECT state, detail, at FROM payment_events WHERE payment_id = ? ORDER BY rowid`)
    this.countsQ = db.prepare(`SELECT state, COUNT(*) AS n FROM payments GROUP BY state`)
  }

  /** Most recent payments first, optionally of one state and/or one service. */
  payments(o: { limit: number; state?: string; slug?: string }): AdminPayment[] {
    return (this.list.all({ limit: o.limit, state: o.state ?? null, slug: o.slug ?? null }) as Row[]).map(toPayment)
  }

  payment(id: number): AdminPayment | null {
    const r = this.one.get(id) as Row | null
    return r ? toPayment(r) : null
  }

  /** Settlements that need an operator's eye: sent but unconfirmed (settling/pending) and failed. */
  unsettledPayments(): AdminPayment[] {
    return (this.unsettled.all() as Row[]).map(toPayment)
  }

  /** How many payments are in each state. */
  stateCounts(): Record<string, number> {
    return Object.fromEntries((this.countsQ.all() as Array<{ state: string; n: number }>).map((r) => [r.state, r.n]))
  }

  /** The transitions of one payment, oldest first. */
  events(id: number): Array<{ state: string; detail: string | null; at: string }> {
    return (this.eventsQ.all(id) as Row[]).map((e) => ({
      state: String(e.state),
      detail: e.detail === null || e.detail === '' ? null : String(e.detail),
      at: new Date(e.at as number).toISOString(),
    }))
  }

  /**
   * Settled revenue and settlement gas per UTC day and per service on `network`, and each network's totals, over the
   * last `days` UTC days (today included), the window /stats uses: one SQL aggregation by (day, network, service),
   * rolled up here.
   */
  money(days: number, network: string): Money {
    return moneyFromCells(this.moneyQ.all(windowStartMs(days, this.now())) as MoneyCell[], network)
  }

  /**
   * Failed paid calls by error code per service, from the ledger: a paid call whose handler failed is released
   * with the reason `handler <status> <CODE>`. Unpaid failures are only counted in stats_daily.errors.
   */
  paidFailures(days: number): Array<{ slug: string; code: string; status: number | null; count: number }> {
    return failuresFrom(
      this.released.all(this.now().getTime() - days * 86_400_000) as Array<{
        slug: string
        reason: string | null
        n: number
      }>,
    )
  }

  /** Demo quota use per day: distinct clients and calls taken. */
  demoQuota(days: number): Array<{ day: string; clients: number; calls: number }> {
    const since = utcDay(new Date(this.now().getTime() - (days - 1) * 86_400_000))
    return this.quotaQ.all(since) as never
  }
}
