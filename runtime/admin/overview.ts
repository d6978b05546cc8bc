import { windowStartMs } from '../db/shared'
import { protocolsOf } from '../db/report'
import type { AdminReads, ChannelStore, LedgerStore, StatsStore } from '../db/store'
import type { Facilitator } from '../pay/types'
import { upstreamHealth } from '../net/upstream-health'
import { canaryWatched, reliabilityReport } from '../ops/reliability'
import { explorerBase, paymentTxUrl } from './explorer'

export interface OverviewDeps {
  queries: AdminReads
  stats: StatsStore
  facilitator?: Facilitator
  network: string
  asset: string
  payTo: string
  devChain: boolean
  demoLimit: number
  demoService: string
  /** Error answers by code per service over the window, every instance's (see error-codes.ts). */
  errorCodes: Array<{ slug: string; code: string; status: number; count: number }>
  /** The channel charges, when this server offers channels: paid calls and revenue beside the exact ones. */
  channels?: Pick<ChannelStore, 'chargedByDay'>
  /** The ledger's settled rows, for the revenue per protocol (x402, MPP). */
  ledger?: Pick<LedgerStore, 'settledByDay'>
}

/** The window's channel charges on `network`: by service and by UTC day (paid calls, revenue in atomic units). */
async function channelMoney(d: OverviewDeps) {
  if (!d.channels) return null
  const rows = (await d.channels.chargedByDay(windowStartMs(WINDOW_DAYS, new Date()))).filter(
    (r) => r.network === d.network,
  )
  const group = (key: 'slug' | 'day') => {
    const m = new Map<string, { paid_calls: number; revenue: bigint }>()
    for (const r of rows) {
      const g = m.get(r[key]) ?? { paid_calls: 0, revenue: 0n }
      g.paid_calls += r.paid_calls
      g.revenue += BigInt(r.revenue_atomic)
      m.set(r[key], g)
    }
    return [...m].map(([k, g]) => ({
      [key]: k,
      paid_calls: g.paid_calls,
      revenue_atomic: g.revenue.toString(),
      revenue_usd: Number(g.revenue) / 1e6,
    }))
  }
  const total = rows.reduce((a, r) => a + BigInt(r.revenue_atomic), 0n)
  return {
    paid_calls: rows.reduce((a, r) => a + r.paid_calls, 0),
    revenue_atomic: total.toString(),
    revenue_usd: Number(total) / 1e6,
    services: group('slug'),
    days: group('day'),
  }
}

/** The console's window (days, UTC, today included): its money, its errors and both schemes' channel figures. */
export const WINDOW_DAYS = 30

/** Everything the console shows besides the payment list, in one read-only document. */
export async function overview(d: OverviewDeps) {
  const explorer = explorerBase(d.network, d.devChain)
  let facilitator: unknown = null
  try {
    facilitator = d.facilitator?.health ? d.facilitator.health() : null
  } catch (e) {
    facilitator = { ok: false, canPay: false, detail: `health() failed: ${(e as Error).message}` }
  }
  let payeeBalance: string | null = null
  if (d.facilitator?.balance && /^0x[0-9a-fA-F]{40}$/.test(d.payTo)) {
    // A slow or failing chain read must not hold the console: 2 s, then "unknown".
    payeeBalance = await Promise.race([
      d.facilitator.balance(d.payTo as `0x${string}`, d.asset).then(
        (b) => b.toString(),
        () => null,
      ),
      new Promise<null>((r) => setTimeout(() => r(null), 2000)),
    ])
  }
  const rows = await d.stats.rows(WINDOW_DAYS)
  // Paid calls come from the ledger's settled rows (the stats counters keep traffic only).
  const money = await d.queries.money(WINDOW_DAYS, d.network)
  // Paid calls of every scheme: exact settlements and channel charges (docs/channels.md).
  const channel = await channelMoney(d)
  const chargedBySlug = new Map((channel?.services ?? []).map((m) => [m.slug as string, m.paid_calls]))
  const settledBySlug = new Map(money.services.map((m) => [m.slug, m.settled]))
  const perService = new Map<
    string,
    { slug: string; calls: number; paid_calls: number; errors: number; tokens: number; demo_calls: number }
  >()
  for (const r of rows) {
    const s = perService.get(r.slug) ?? { slug: r.slug, calls: 0, paid_calls: 0, errors: 0, tokens: 0, demo_calls: 0 }
    s.calls += r.calls
    s.paid_calls = (settledBySlug.get(r.slug) ?? 0) + (chargedBySlug.get(r.slug) ?? 0)
    s.errors += r.errors
    s.tokens += r.tokens
    s.demo_calls += r.demo_calls
    perService.set(r.slug, s)
  }
  const services = [...perService.values()]
  const unsettled = (await d.queries.unsettledPayments()).map((p) => ({
    ...p,
    explorer_url: paymentTxUrl(p, d.devChain),
  }))
  const today = new Date().toISOString().slice(0, 10)
  const demo = await d.queries.demoQuota(WINDOW_DAYS)
  return {
    window_days: WINDOW_DAYS,
    network: d.network,
    dev_chain: d.devChain,
    explorer,
    pay_to: d.payTo,
    payee_balance_atomic: payeeBalance,
    facilitator: { kind: d.facilitator?.kind ?? null, health: facilitator },
    payment_states: await d.queries.stateCounts(),
    unsettled,
    money,
    /** The channel charges over the same window and network (null: no channels offered). */
    channel_money: channel,
    /** The window's revenue on the main network per protocol: x402 (exact + channels) and MPP (docs/payments.md). */
    protocol_money: d.ledger
      ? protocolsOf(
          await d.ledger.settledByDay(windowStartMs(WINDOW_DAYS, new Date())),
          d.channels ? await d.channels.chargedByDay(windowStartMs(WINDOW_DAYS, new Date())) : [],
          d.network,
          null,
        )
      : null,
    errors: {
      by_code: d.errorCodes,
      per_service: services
        .filter((s) => s.errors > 0)
        .sort((a, b) => b.errors - a.errors)
        .map((s) => ({ slug: s.slug, errors: s.errors, calls: s.calls })),
      paid_failures_by_code: await d.queries.paidFailures(WINDOW_DAYS),
    },
    demo: {
      service: d.demoService,
      daily_limit: d.demoLimit,
      today: demo.find((x) => x.day === today) ?? { day: today, clients: 0, calls: 0 },
      days: demo,
    },
    upstreams: upstreamHealth(),
    // The paid canary's runs (CANARY_PAYER; GET /reliability), or null when no canary is configured.
    reliability: canaryWatched() ? reliabilityReport() : null,
    tokens: services
      .filter((s) => s.tokens > 0)
      .sort((a, b) => b.tokens - a.tokens)
      .map((s) => ({ slug: s.slug, tokens: s.tokens, calls: s.calls })),
  }
}
