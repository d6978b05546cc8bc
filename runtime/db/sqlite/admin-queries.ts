import type { Database } from 'bun:sqlite'
import { utcDay } from './connect'

/**
 * Read-only queries for the operator console over payments, payment_events, stats_daily and demo_quota.
 * Never returns the signed payload.
 */

export const PAYMENT_STATES = ['reserved', 'verified', 'settling', 'pending', 'settled', 'failed', 'released'] as const

export interface AdminPayment {
  id: number
  state: string
  slug: string
  tier: string
  /** Atomic USDC units (6 decimals), as a decimal string. */
  amount: string
  amount_usd: number
  payer: string
  network: string
  tx_hash: string | null
  reason: string | null
  request_id: string
  gas_used: string | null
  gas_price_wei: string | null
  /** gas_used × gas_price in wei, when both are known. */
  gas_cost_wei: string | null
  created_at: string
  updated_at: string
  settled_at: string | null
}

type Row = Record<string, unknown>

const iso = (ms: unknown) => (typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null)
const str = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v))
const big = (v: unknown): bigint | null => {
  const s = str(v)
  return s !== null && /^\d{1,78}$/.test(s) ? BigInt(s) : null
}

/** The settlement time of a row (ms), written by the settle-once transaction. */
const settledMs = (r: Row): number | null => (typeof r.settled_at === 'number' ? r.settled_at : null)
/** An integer sum read as text ('123', or '123.0' from a numeric column) as a bigint. */
const sum = (v: unknown): bigint => BigInt(String(v ?? '0').split('.')[0] || '0')

export function toPayment(r: Row): AdminPayment {
  const gasUsed = big(r.gas_used),
    gasPrice = big(r.gas_price)
  return {
    id: r.id as number,
    state: String(r.state),
    slug: String(r.slug),
    tier: String(r.tier),
    amount: String(r.amount),
    amount_usd: Number(r.amount) / 1e6,
    payer: String(r.payer),
    network: String(r.network),
    tx_hash: str(r.tx_hash),
    reason: str(r.reason),
    request_id: String(r.request_id),
    gas_used: gasUsed === null ? null : gasUsed.toString(),
    gas_price_wei: gasPrice === null ? null : gasPrice.toString(),
    gas_cost_wei: gasUsed !== null && gasPrice !== null ? (gasUsed * gasPrice).toString() : null,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    settled_at: iso(settledMs(r)),
  }
}

export interface DayMoney {
  day: string
  revenue_atomic: string
  revenue_usd: number
  gas_wei: string
  settled: number
}
export interface ServiceMoney {
  slug: string
  revenue_atomic: string
  revenue_usd: number
  gas_wei: string
  settled: number
  avg_gas_used: number | null
}

export class AdminQueries {
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
      detail: str(e.detail),
      at: iso(e.at)!,
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

/** One (UTC day, network, service) cell of settled payments, as both engines' aggregation returns it. */
export interface MoneyCell {
  day: string
  network: string
  slug: string
  settled: number | string
  revenue_atomic: string
  gas_wei: string
  /** Sum of gas_used over the rows whose gas is known, and how many they are (for the average). */
  gas_used: string
  with_gas: number | string
}

/** The start (ms) of a `days`-day window of UTC days ending today: the same window as /stats. */
export const windowStartMs = (days: number, now: Date) =>
  Date.parse(`${utcDay(new Date(now.getTime() - (days - 1) * 86_400_000))}T00:00:00Z`)

/** One network's settled money over the window. */
export interface NetworkMoneyTotal {
  network: string
  revenue_atomic: string
  revenue_usd: number
  gas_wei: string
  settled: number
}

/** The console's money view: days and services on `network` (the primary one), and every network's totals. */
export interface Money {
  network: string
  days: DayMoney[]
  services: ServiceMoney[]
  /** `network` first (even without settlements), then the others by name; never one sum of different chains. */
  networks: NetworkMoneyTotal[]
}

/** Rolls (day, network, service) cells up into the days and services of `network` and per-network totals (exact). */
export function moneyFromCells(cells: MoneyCell[], network: string): Money {
  const byDay = new Map<string, { rev: bigint; gas: bigint; n: number }>()
  const bySlug = new Map<string, { rev: bigint; gas: bigint; n: number; gasUsed: bigint; withGas: number }>()
  const byNetwork = new Map<string, { rev: bigint; gas: bigint; n: number }>([[network, { rev: 0n, gas: 0n, n: 0 }]])
  for (const c of cells) {
    const rev = sum(c.revenue_atomic),
      gas = sum(c.gas_wei),
      n = Number(c.settled)
    const t = byNetwork.get(c.network) ?? { rev: 0n, gas: 0n, n: 0 }
    t.rev += rev
    t.gas += gas
    t.n += n
    byNetwork.set(c.network, t)
    if (c.network !== network) continue
    const d = byDay.get(c.day) ?? { rev: 0n, gas: 0n, n: 0 }
    d.rev += rev
    d.gas += gas
    d.n += n
    byDay.set(c.day, d)
    const s = bySlug.get(c.slug) ?? { rev: 0n, gas: 0n, n: 0, gasUsed: 0n, withGas: 0 }
    s.rev += rev
    s.gas += gas
    s.n += n
    s.gasUsed += sum(c.gas_used)
    s.withGas += Number(c.with_gas)
    bySlug.set(c.slug, s)
  }
  const others = [...byNetwork.keys()].filter((n) => n !== network).sort()
  return {
    network,
    networks: [network, ...others].map((n) => {
      const t = byNetwork.get(n)!
      return {
        network: n,
        revenue_atomic: t.rev.toString(),
        revenue_usd: Number(t.rev) / 1e6,
        gas_wei: t.gas.toString(),
        settled: t.n,
      }
    }),
    days: [...byDay]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([day, d]) => ({
        day,
        revenue_atomic: d.rev.toString(),
        revenue_usd: Number(d.rev) / 1e6,
        gas_wei: d.gas.toString(),
        settled: d.n,
      })),
    services: [...bySlug]
      .sort(([sa, a], [sb, b]) => (b.rev > a.rev ? 1 : b.rev < a.rev ? -1 : sa < sb ? -1 : sa > sb ? 1 : 0))
      .map(([slug, s]) => ({
        slug,
        revenue_atomic: s.rev.toString(),
        revenue_usd: Number(s.rev) / 1e6,
        gas_wei: s.gas.toString(),
        settled: s.n,
        avg_gas_used: s.withGas ? Number(s.gasUsed / BigInt(s.withGas)) : null,
      })),
  }
}

/**
 * Failed paid calls by error code per service, from released rows grouped by (slug, reason): a paid call whose
 * handler failed is released with the reason `handler <status> <CODE>`.
 */
export function failuresFrom(
  rows: Array<{ slug: string; reason: string | null; n: number }>,
): Array<{ slug: string; code: string; status: number | null; count: number }> {
  const out = new Map<string, { slug: string; code: string; status: number | null; count: number }>()
  for (const r of rows) {
    const m = (r.reason ?? '').match(/^handler (\d{3}) ([A-Z0-9_]+)/)
    const code = m ? m[2] : r.reason?.startsWith('request failed') ? 'REQUEST_FAILED' : 'RELEASED'
    const key = `${r.slug} ${code}`
    const row = out.get(key) ?? { slug: r.slug, code, status: m ? Number(m[1]) : null, count: 0 }
    row.count += r.n
    out.set(key, row)
  }
  return [...out.values()].sort((a, b) => b.count - a.count || a.slug.localeCompare(b.slug))
}

type Awaitable<T> = T | Promise<T>
/** The console's reads, on either engine (AdminQueries on SQLite, PgAdminQueries on Postgres). */
export interface AdminReads {
  payments(o: { limit: number; state?: string; slug?: string }): Awaitable<AdminPayment[]>
  payment(id: number): Awaitable<AdminPayment | null>
  unsettledPayments(): Awaitable<AdminPayment[]>
  stateCounts(): Awaitable<Record<string, number>>
  events(id: number): Awaitable<Array<{ state: string; detail: string | null; at: string }>>
  money(days: number, network: string): Awaitable<Money>
  paidFailures(days: number): Awaitable<Array<{ slug: string; code: string; status: number | null; count: number }>>
  demoQuota(days: number): Awaitable<Array<{ day: string; clients: number; calls: number }>>
}
