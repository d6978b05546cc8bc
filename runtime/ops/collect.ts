/**
 * Gauges read at scrape time (docs/operations.md "Metrics"): this process's worker pool and payment backend
 * (settler gas balances per network), and the figures that live in the database: settlements pending and their age,
 * each network's channel escrow, unclaimed value and claim backlog, channel gas and sponsored deposits, revenue
 * (every scheme, and its exact part) and settlement gas. Database figures are the same on every instance sharing the
 * database (labelled `source="database"`): aggregate them with `max`, never `sum` (docs/operations.md).
 * A source that fails is reported by `x402_scrape_errors` and left out; the scrape itself never fails.
 * @module ops/collect
 */
import type { ChannelStore, LedgerStore } from '../db/store'
import type { HandlerPool } from '../isolate'
import type { ChannelService } from '../pay/schemes/batch-settlement/networks'
import type { FacilitatorHealth } from '../pay/types'
import type { Logger } from '../sdk'
import { registry, usdc } from './metrics'

export interface CollectDeps {
  ledger: LedgerStore
  pool?: Pick<HandlerPool, 'size' | 'onWorkerEnded' | 'inline'>
  facilitatorHealth?: () => FacilitatorHealth | undefined
  channels?: Pick<ChannelService, 'networks'>
  channelStore?: ChannelStore
  /** The main network (the settler of a single-network backend reports no network of its own). */
  network: string
  log: Logger
}

const g = {
  up: registry.gauge('x402_up', 'Always 1: this instance answered the scrape.'),
  workers: registry.gauge('x402_worker_pool_workers', 'Handler workers by state (ready, busy).', ['state']),
  queue: registry.gauge('x402_worker_pool_queue', 'Paid and demo calls waiting for a free handler worker.'),
  demoted: registry.gauge(
    'x402_inline_services_demoted',
    'Linear services sent back to the worker pool for the rest of the process (a main-thread run over ISOLATE_INLINE_MS, or an async handler).',
  ),
  facilitatorUp: registry.gauge(
    'x402_facilitator_up',
    'The settlement side can verify and settle (1) or not (0: down, or no settler can pay gas) by network.',
    ['network'],
  ),
  settlerBalance: registry.gauge(
    'x402_settler_balance_eth',
    'Gas balance (ETH) of each settler key by network and address.',
    ['network', 'address'],
  ),
  settlerLeft: registry.gauge(
    'x402_settler_settlements_left',
    'Settlements each settler key can still pay gas for at the current fee by network and address.',
    ['network', 'address'],
  ),
  pending: registry.gauge(
    'x402_settlements_unfinished',
    'Exact payments sent to the chain but not yet confirmed (settling, pending) by network (database).',
    ['network', 'source'],
  ),
  pendingAge: registry.gauge(
    'x402_settlement_oldest_unfinished_seconds',
    'Age of the oldest unconfirmed exact settlement by network (database; 0 when none).',
    ['network', 'source'],
  ),
  revenue: registry.gauge(
    'x402_db_revenue_usdc',
    'All-time revenue of every scheme: settled exact + channel charges (USDC) by network (database; as /stats counts it).',
    ['network', 'source'],
  ),
  exactRevenue: registry.gauge(
    'x402_db_exact_revenue_usdc',
    "All-time settled exact revenue (USDC) by network (database; the ledger, /stats's schemes.exact).",
    ['network', 'source'],
  ),
  exactGas: registry.gauge(
    'x402_db_settlement_gas_eth_24h',
    'Gas paid for exact settlements in the last 24 h (ETH) by network (database).',
    ['network', 'source'],
  ),
  escrow: registry.gauge(
    'x402_channel_escrow_usdc',
    "Payers' deposits left in channels this server serves, not yet claimed (USDC) by network (database).",
    ['network', 'source'],
  ),
  unclaimed: registry.gauge(
    'x402_channel_unclaimed_usdc',
    'Charged on channels and not yet claimed on chain: the exposure (USDC) by network (database).',
    ['network', 'source'],
  ),
  backlog: registry.gauge(
    'x402_channel_claim_backlog',
    'Channels with charges not yet claimed by network (database).',
    ['network', 'source'],
  ),
  backlogAge: registry.gauge(
    'x402_channel_oldest_unclaimed_seconds',
    'Age of the oldest charge not yet claimed by network (database; 0 when none).',
    ['network', 'source'],
  ),
  channelEarned: registry.gauge(
    'x402_db_channel_earned_usdc',
    'All-time channel charges (USDC) by network (database).',
    ['network', 'source'],
  ),
  channelGas: registry.gauge(
    'x402_db_channel_gas_eth',
    'All-time gas of channel transactions this server paid: sponsored deposits, claims, sweeps, refunds (ETH) by network (database).',
    ['network', 'source'],
  ),
  sponsored: registry.gauge(
    'x402_db_channel_sponsored_deposits_usdc',
    'All-time deposits this server sponsored (sent for the payer, gas paid by the server) (USDC) by network (database).',
    ['network', 'source'],
  ),
  scrapeErrors: registry.gauge(
    'x402_scrape_errors',
    'Sources that could not be read in this scrape (database, facilitator, channels).',
    ['source'],
  ),
}

const DB = { source: 'database' }
const eth = (wei: bigint | string | number) => Number(wei) / 1e18
/** The most rows a scrape reads from a list (claim backlog, escrow): the figures say "at least" past it. */
const LIST_LIMIT = 5000

function settlers(h: FacilitatorHealth, network: string) {
  g.facilitatorUp.set({ network }, h.ok && h.canPay ? 1 : 0)
  for (const s of h.settlers ?? []) {
    g.settlerBalance.set({ network, address: s.address }, eth(s.balance_wei))
    g.settlerLeft.set({ network, address: s.address }, s.settlements_left)
  }
  for (const [n, each] of Object.entries(h.networks ?? {})) settlers(each, n)
}

async function ledgerFigures(d: CollectDeps): Promise<void> {
  const now = Date.now()
  const rows = await d.ledger.byState(['settling', 'pending'])
  const byNet = new Map<string, { n: number; oldest: number }>()
  for (const r of rows) {
    const network = String((r as { network?: string }).network ?? d.network)
    const e = byNet.get(network) ?? { n: 0, oldest: now }
    e.n++
    e.oldest = Math.min(e.oldest, Number(r.created_at))
    byNet.set(network, e)
  }
  // every network with exact payments or channels: the total revenue counts both schemes, as /stats does
  const channelNets = d.channelStore && d.channels ? d.channels.networks.map((n) => n.network) : []
  const networks = new Set([d.network, ...byNet.keys(), ...channelNets])
  const day = await d.ledger.settledByDay(now - 86_400_000)
  for (const network of networks) {
    const e = byNet.get(network)
    g.pending.set({ network, ...DB }, e?.n ?? 0)
    g.pendingAge.set({ network, ...DB }, e ? Math.max(0, (now - e.oldest) / 1000) : 0)
    const exact = await d.ledger.settledTotal(network)
    const charged = channelNets.includes(network) ? (await d.channelStore!.totals(network)).earned : 0n
    g.exactRevenue.set({ network, ...DB }, usdc(exact))
    g.revenue.set({ network, ...DB }, usdc(exact + charged))
    const gas = day.filter((r) => r.network === network).reduce((a, r) => a + BigInt(r.gas_wei), 0n)
    g.exactGas.set({ network, ...DB }, eth(gas))
  }
}

async function channelFigures(d: CollectDeps): Promise<void> {
  const store = d.channelStore
  if (!store || !d.channels) return
  const now = Date.now()
  for (const { network } of d.channels.networks) {
    const labels = { network, ...DB }
    const [t, due, watched] = await Promise.all([
      store.totals(network),
      store.dueForClaim(network, { minUnclaimed: 1n, chargedBefore: 0, all: true }, LIST_LIMIT),
      store.watched(network, LIST_LIMIT),
    ])
    g.channelEarned.set(labels, usdc(t.earned))
    g.unclaimed.set(labels, usdc(t.earned - t.claimed))
    g.channelGas.set(labels, eth(t.gasWei))
    g.sponsored.set(labels, usdc(t.deposited))
    g.backlog.set(labels, due.length)
    const oldest = due.reduce((a, c) => Math.min(a, c.firstUnclaimedAt ?? now), now)
    g.backlogAge.set(labels, Math.max(0, (now - oldest) / 1000))
    g.escrow.set(labels, usdc(watched.reduce((a, c) => a + (c.balance > c.claimed ? c.balance - c.claimed : 0n), 0n)))
  }
}

/** Sets every scrape-time gauge; a source that fails is counted in x402_scrape_errors and logged once per scrape. */
export async function collect(d: CollectDeps): Promise<void> {
  g.up.set({}, 1)
  const size = d.pool?.size
  if (size) {
    g.workers.set({ state: 'busy' }, size.busy)
    g.workers.set({ state: 'ready' }, size.workers - size.busy)
    g.queue.set({}, size.waiting)
  }
  if (d.pool?.inline) g.demoted.set({}, d.pool.inline.counts.demoted)
  const sources: Array<[string, () => unknown]> = [
    [
      'facilitator',
      () => {
        const h = d.facilitatorHealth?.()
        if (h) settlers(h, d.network)
      },
    ],
    ['database', () => ledgerFigures(d)],
    ['channels', () => channelFigures(d)],
  ]
  await Promise.all(
    sources.map(async ([source, read]) => {
      try {
        await read()
        g.scrapeErrors.set({ source }, 0)
      } catch (e) {
        g.scrapeErrors.set({ source }, 1)
        d.log.warn('metrics: a source could not be read', { source, error: String((e as Error)?.message ?? e) })
      }
    }),
  )
}
