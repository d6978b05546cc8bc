import type { AdminPayment, Counter, ErrorCountRow, Money, MoneyCell, PaymentState } from './store'

/**
 * Helpers both engines use (runtime/db/sqlite/, runtime/db/postgres/): constants of the contract, row mapping and
 * roll-ups computed the same way whatever the engine. No SQL here and no engine import.
 */

/** `YYYY-MM-DD` of a date in UTC. */
export const utcDay = (d: Date) => d.toISOString().slice(0, 10)

/** ISO time of the UTC midnight after `d` (when a daily quota resets). */
export function nextUtcMidnight(d: Date): string {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString()
}

/** The start of a released row's reason when its handler ran and failed, e.g. `handler 502 UPSTREAM_ERROR` (counted by `failedRuns`). */
export const FAILED_RUN_REASON = 'handler '

/**
 * A payer (or payment nonce) as the ledger keys it: an EVM one (0x hex) in lower case, as the chain compares it; any
 * other (a Solana base58 address, case-sensitive) as it is.
 */
export const ledgerKey = (s: string): string => (s.startsWith('0x') || s.startsWith('0X') ? s.toLowerCase() : s)

/** How far the clocks of two instances may differ (ms): settlements this close before a balance read count as after it. */
export const SKEW_MS = 1000

/** The traffic counters (Counter), in column order. */
export const COUNTERS: Counter[] = ['calls', 'errors', 'tokens', 'demo_calls']

/** Every payment state (PaymentState), for validating a console filter. */
export const PAYMENT_STATES = [
  'reserved',
  'verified',
  'settling',
  'pending',
  'settled',
  'failed',
  'released',
] as const satisfies readonly PaymentState[]

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

/** A payments row (either engine, numbers already numbers) as the console shows it: never the signed payload. */
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

/** The start (ms) of a `days`-day window of UTC days ending today: the same window as /stats. */
export const windowStartMs = (days: number, now: Date) =>
  Date.parse(`${utcDay(new Date(now.getTime() - (days - 1) * 86_400_000))}T00:00:00Z`)

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

/** Largest count first, then by service, code and status (the same order on both engines). */
export const byCount = (a: ErrorCountRow, b: ErrorCountRow) =>
  b.count - a.count ||
  (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) ||
  (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
  a.status - b.status
