import { utcDay } from './shared'
import type { Counter, LedgerStore, SettledRow, StatsStore } from './store'

/** One line of /stats: traffic counters plus paid calls, revenue and gas from the ledger's settled rows. */
export interface DayStats {
  calls: number
  paid_calls: number
  revenue_usd: number
  /** Exact revenue in atomic USDC units (6 decimals), as a decimal string. */
  revenue_atomic: string
  errors: number
  tokens: number
  demo_calls: number
  /** Gas paid for the settlements (wei, decimal string); settlements whose gas is unknown count 0. */
  gas_wei: string
  /** gas_wei in USD at ETH_USD; null when ETH_USD is not set. */
  gas_usd: number | null
}

interface Line {
  calls: number
  errors: number
  tokens: number
  demo_calls: number
  paid_calls: number
  revenue: bigint
  gas: bigint
}
const empty = (): Line => ({ calls: 0, errors: 0, tokens: 0, demo_calls: 0, paid_calls: 0, revenue: 0n, gas: 0n })
const add = (a: Line, b: Line) => {
  a.calls += b.calls
  a.errors += b.errors
  a.tokens += b.tokens
  a.demo_calls += b.demo_calls
  a.paid_calls += b.paid_calls
  a.revenue += b.revenue
  a.gas += b.gas
}

/** Wei to USD at `ethUsd` (rounded to 1e-9 USD), or null without a rate. */
export function weiToUsd(wei: bigint, ethUsd: number | null): number | null {
  if (ethUsd === null) return null
  return Math.round((Number(wei) / 1e18) * ethUsd * 1e9) / 1e9
}

function finish(l: Line, ethUsd: number | null): DayStats {
  return {
    calls: l.calls,
    paid_calls: l.paid_calls,
    revenue_usd: Number(l.revenue) / 1e6,
    revenue_atomic: l.revenue.toString(),
    errors: l.errors,
    tokens: l.tokens,
    demo_calls: l.demo_calls,
    gas_wei: l.gas.toString(),
    gas_usd: weiToUsd(l.gas, ethUsd),
  }
}

/** One network's settled money over the window (each network is its own figure: test USDC is not revenue). */
export interface NetworkMoney {
  network: string
  paid_calls: number
  revenue_usd: number
  revenue_atomic: string
  gas_wei: string
  gas_usd: number | null
}

/**
 * The /stats report over the last `days` UTC days (from stores with synchronous reads): totals, per day and per
 * service. Traffic comes from the stats counters, paid calls / revenue / gas from the ledger's settled rows (grouped
 * by the UTC day they settled), so the books equal the chain after any crash. Money is per network: `totals`, `days` and `services` count the
 * payments settled on `network` (the configured primary network, named in the report); `networks` gives each
 * network's own figures (the primary first), never one sum of different chains.
 */
export function statsReport(
  stats: { rows(days: number): TrafficRow[] },
  ledger: { settledByDay(sinceMs: number): SettledRow[] },
  days: number,
  ethUsd: number | null,
  network: string,
  now = new Date(),
) {
  const sinceDay = utcDay(new Date(now.getTime() - (days - 1) * 86_400_000))
  return buildReport(
    stats.rows(days),
    ledger.settledByDay(Date.parse(`${sinceDay}T00:00:00Z`)),
    days,
    ethUsd,
    network,
    now,
  )
}

/** `statsReport` from any storage engine (SQLite or Postgres). */
export async function loadStatsReport(
  stats: StatsStore,
  ledger: LedgerStore,
  days: number,
  ethUsd: number | null,
  network: string,
  now = new Date(),
) {
  const sinceDay = utcDay(new Date(now.getTime() - (days - 1) * 86_400_000))
  const [traffic, settled] = await Promise.all([
    stats.rows(days),
    ledger.settledByDay(Date.parse(`${sinceDay}T00:00:00Z`)),
  ])
  return buildReport(traffic, settled, days, ethUsd, network, now)
}

type TrafficRow = { day: string; slug: string } & Record<Counter, number>

/** Each network's money in `settled`, `primary` first (listed even without settlements), the others by name. */
function byNetwork(settled: SettledRow[], primary: string, ethUsd: number | null): NetworkMoney[] {
  const lines = new Map<string, Line>([[primary, empty()]])
  for (const r of settled) {
    if (!lines.has(r.network)) lines.set(r.network, empty())
    const l = lines.get(r.network)!
    l.paid_calls += r.paid_calls
    l.revenue += BigInt(r.revenue_atomic)
    l.gas += BigInt(r.gas_wei)
  }
  const names = [primary, ...[...lines.keys()].filter((n) => n !== primary).sort()]
  return names.map((network) => {
    const f = finish(lines.get(network)!, ethUsd)
    return {
      network,
      paid_calls: f.paid_calls,
      revenue_usd: f.revenue_usd,
      revenue_atomic: f.revenue_atomic,
      gas_wei: f.gas_wei,
      gas_usd: f.gas_usd,
    }
  })
}

function buildReport(
  traffic: TrafficRow[],
  settled: SettledRow[],
  days: number,
  ethUsd: number | null,
  network: string,
  now: Date,
) {
  const sinceDay = utcDay(new Date(now.getTime() - (days - 1) * 86_400_000))
  const cells = new Map<string, Line>()
  const cell = (day: string, slug: string) => {
    const k = `${day}|${slug}`
    let c = cells.get(k)
    if (!c) cells.set(k, (c = empty()))
    return c
  }
  for (const r of traffic) {
    if (r.day < sinceDay) continue
    const c = cell(r.day, r.slug)
    for (const k of ['calls', 'errors', 'tokens', 'demo_calls'] as Counter[]) c[k] += r[k]
  }
  for (const r of settled) {
    if (r.network !== network) continue
    const c = cell(r.day, r.slug)
    c.paid_calls += r.paid_calls
    c.revenue += BigInt(r.revenue_atomic)
    c.gas += BigInt(r.gas_wei)
  }
  const total = empty()
  const byDay = new Map<string, Line>()
  const bySlug = new Map<string, Line>()
  for (const [k, c] of cells) {
    const [day, slug] = k.split('|')
    add(total, c)
    if (!byDay.has(day)) byDay.set(day, empty())
    if (!bySlug.has(slug)) bySlug.set(slug, empty())
    add(byDay.get(day)!, c)
    add(bySlug.get(slug)!, c)
  }
  return {
    window_days: days,
    network,
    totals: finish(total, ethUsd),
    days: [...byDay.keys()].sort().map((day) => ({ day, ...finish(byDay.get(day)!, ethUsd) })),
    services: [...bySlug.keys()].sort().map((slug) => ({ slug, ...finish(bySlug.get(slug)!, ethUsd) })),
    networks: byNetwork(settled, network, ethUsd),
  }
}
