import { utcDay } from './shared'
import type { ChannelStore, ChannelTxDay, Counter, LedgerStore, SettledRow, StatsStore } from './store'

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

/** What the report reads of the channels (payment channels' charges and transactions by UTC day). */
type ChannelBooks = Pick<ChannelStore, 'chargedByDay' | 'txsByDay'>

/** One scheme's money in the window (`batch-settlement` adds its claims, sweeps and sponsored gas). */
export interface SchemeMoney {
  paid_calls: number
  revenue_usd: number
  revenue_atomic: string
  /** Gas of the scheme's transactions (exact: settlements; channels: deposits, claims, sweeps, refunds). */
  gas_wei: string
  gas_usd: number | null
  claimed_atomic?: string
  swept_atomic?: string
  /** Channels: the gas of the deposits and refunds sent for payers. */
  sponsored_gas_wei?: string
}

/**
 * The /stats report over the last `days` UTC days (from stores with synchronous reads): totals, per day and per
 * service. Traffic comes from the stats counters; paid calls / revenue / gas from the ledger's settled rows (`exact`,
 * by the UTC day they settled) and, with `channels`, the channel charges (`batch-settlement`, by the UTC day of the
 * charge) and the channels' transactions (their gas, per day), so the books equal the chain after any crash. Money is
 * per network: `totals`, `days`, `services` and `schemes` count `network` (the configured primary network, named in
 * the report); `networks` gives each network's own figures (the primary first), never one sum of different chains.
 */
export function statsReport(
  stats: { rows(days: number): TrafficRow[] },
  ledger: { settledByDay(sinceMs: number): SettledRow[] },
  days: number,
  ethUsd: number | null,
  network: string,
  now = new Date(),
  channels?: { chargedByDay(sinceMs: number): SettledRow[]; txsByDay(sinceMs: number): ChannelTxDay[] },
) {
  const since = windowStart(days, now)
  return buildReport(stats.rows(days), ledger.settledByDay(since), days, ethUsd, network, now, {
    charges: channels?.chargedByDay(since),
    txs: channels?.txsByDay(since),
  })
}

const windowStart = (days: number, now: Date) =>
  Date.parse(`${utcDay(new Date(now.getTime() - (days - 1) * 86_400_000))}T00:00:00Z`)

/** `statsReport` from any storage engine (SQLite or Postgres). */
export async function loadStatsReport(
  stats: StatsStore,
  ledger: LedgerStore,
  days: number,
  ethUsd: number | null,
  network: string,
  now = new Date(),
  channels?: ChannelBooks,
) {
  const since = windowStart(days, now)
  const [traffic, settled, charges, txs] = await Promise.all([
    stats.rows(days),
    ledger.settledByDay(since),
    channels?.chargedByDay(since),
    channels?.txsByDay(since),
  ])
  return buildReport(traffic, settled, days, ethUsd, network, now, { charges, txs })
}

type TrafficRow = { day: string; slug: string } & Record<Counter, number>

/** Each network's money in `settled`, `primary` first (listed even without settlements), the others by name. */
function byNetwork(
  settled: SettledRow[],
  primary: string,
  ethUsd: number | null,
  txs: ChannelTxDay[] = [],
): NetworkMoney[] {
  const lines = new Map<string, Line>([[primary, empty()]])
  const line = (n: string) => {
    if (!lines.has(n)) lines.set(n, empty())
    return lines.get(n)!
  }
  for (const r of settled) {
    const l = line(r.network)
    l.paid_calls += r.paid_calls
    l.revenue += BigInt(r.revenue_atomic)
    l.gas += BigInt(r.gas_wei)
  }
  for (const t of txs) line(t.network).gas += BigInt(t.gas_wei)
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
  exactRows: SettledRow[],
  days: number,
  ethUsd: number | null,
  network: string,
  now: Date,
  ch: { charges?: SettledRow[]; txs?: ChannelTxDay[] } = {},
) {
  // Channel charges count as paid calls and revenue beside exact settlements (their gas is per day, not per service).
  const settled = [...exactRows, ...(ch.charges ?? [])]
  const txs = ch.txs ?? []
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
  for (const t of txs) {
    if (t.network !== network || t.day < sinceDay) continue
    if (!byDay.has(t.day)) byDay.set(t.day, empty())
    byDay.get(t.day)!.gas += BigInt(t.gas_wei)
    total.gas += BigInt(t.gas_wei)
  }
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
    networks: byNetwork(settled, network, ethUsd, txs),
    schemes: schemesOf(exactRows, ch, network, ethUsd),
    protocols: protocolsOf(exactRows, ch.charges ?? [], network, ethUsd),
  }
}

/**
 * The window's money of `network` by protocol: `x402` (its `exact` settlements and channel charges) and `mpp`
 * (MPP's `evm` `charge` credentials, settled by the same EIP-3009 engine as `exact`; docs/payments.md).
 */
export function protocolsOf(
  ledgerRows: SettledRow[],
  charges: SettledRow[],
  network: string,
  ethUsd: number | null,
): Record<'x402' | 'mpp', Omit<SchemeMoney, 'claimed_atomic' | 'swept_atomic' | 'sponsored_gas_wei'>> {
  const money = (rows: SettledRow[]) => {
    const mine = rows.filter((r) => r.network === network)
    const revenue = mine.reduce((a, r) => a + BigInt(r.revenue_atomic), 0n)
    const gas = mine.reduce((a, r) => a + BigInt(r.gas_wei), 0n)
    return {
      paid_calls: mine.reduce((a, r) => a + r.paid_calls, 0),
      revenue_usd: Number(revenue) / 1e6,
      revenue_atomic: revenue.toString(),
      gas_wei: gas.toString(),
      gas_usd: weiToUsd(gas, ethUsd),
    }
  }
  return {
    x402: money([...ledgerRows.filter((r) => r.protocol !== 'mpp'), ...charges]),
    mpp: money(ledgerRows.filter((r) => r.protocol === 'mpp')),
  }
}

/** The window's money of `network` by scheme: `exact` always, `batch-settlement` when the channels are read. */
function schemesOf(
  exactRows: SettledRow[],
  ch: { charges?: SettledRow[]; txs?: ChannelTxDay[] },
  network: string,
  ethUsd: number | null,
): Record<string, SchemeMoney> {
  const money = (rows: SettledRow[], gas: bigint): SchemeMoney => {
    const mine = rows.filter((r) => r.network === network)
    const revenue = mine.reduce((a, r) => a + BigInt(r.revenue_atomic), 0n)
    const g = gas + mine.reduce((a, r) => a + BigInt(r.gas_wei), 0n)
    return {
      paid_calls: mine.reduce((a, r) => a + r.paid_calls, 0),
      revenue_usd: Number(revenue) / 1e6,
      revenue_atomic: revenue.toString(),
      gas_wei: g.toString(),
      gas_usd: weiToUsd(g, ethUsd),
    }
  }
  const out: Record<string, SchemeMoney> = { exact: money(exactRows, 0n) }
  if (!ch.charges) return out
  const txs = (ch.txs ?? []).filter((t) => t.network === network)
  const of = (kinds: string[], f: (t: ChannelTxDay) => string) =>
    txs.filter((t) => kinds.includes(t.kind)).reduce((a, t) => a + BigInt(f(t)), 0n)
  out['batch-settlement'] = {
    ...money(
      ch.charges,
      of(['deposit', 'claim', 'sweep', 'refund'], (t) => t.gas_wei),
    ),
    claimed_atomic: of(['claim'], (t) => t.amount).toString(),
    swept_atomic: of(['sweep'], (t) => t.amount).toString(),
    sponsored_gas_wei: of(['deposit', 'refund'], (t) => t.gas_wei).toString(),
  }
  return out
}
