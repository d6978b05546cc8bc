/**
 * Payment channels on every network that has them (NETWORKS; docs/channels.md): one `ChannelNetwork` each (its own
 * backend, receiver authorizer, PAY_TO and claim engine), put together as the paid call's `ChannelOffer`, which
 * dispatches on the network of the `exact` entry or the payment. A network without channels gets no
 * `batch-settlement` entry and its vouchers are refused. A network may be added while running (`add`: a remote
 * facilitator that answered /supported late); `version` then grows. Types only here: boot may load it alone.
 * @module pay/schemes/batch-settlement/networks
 */
import type { PaymentRequirements as ExactRequirements } from '../../types'
import type { RoundResult } from './claimer'
import type { ChannelOffer } from './scheme'
import type { ChannelFigures, ChannelNetwork } from './serve'

/** /stats `channels`: the sum over networks (`network` is the first one's), with each network's own figures. */
export interface ChannelTotalsFigures extends ChannelFigures {
  networks: ChannelFigures[]
}

export interface ChannelService extends ChannelOffer {
  /** The networks offering channels, in NETWORKS order. */
  networks: ChannelNetwork[]
  /** Starts every network's claim rounds. */
  start(): void
  /** Stops the rounds, claims every channel with anything unclaimed and sweeps to PAY_TO, on every network. */
  stop(): Promise<RoundResult>
  /** All time (/stats), or since `since` (ms; the console's window). */
  figures(since?: number): Promise<ChannelTotalsFigures>
  /** Adds a network's channels (in NETWORKS order), its claim engine started when the others are. */
  add(n: ChannelNetwork): void
  version: number
}

/**
 * `order`: the NETWORKS order the terms are published in. `stopping`: called first by `stop()` (ends what may still
 * add networks).
 */
export function channelService(
  initial: ChannelNetwork[],
  o: { order?: string[]; stopping?: () => void } = {},
): ChannelService {
  const networks: ChannelNetwork[] = []
  const byNetwork = new Map<string, ChannelNetwork>()
  const terms: ChannelService['terms'] = {}
  const rank = (n: string) => o.order?.indexOf(n) ?? 0
  let started = false
  const service: ChannelService = {
    networks,
    version: 0,
    offer: (exact: ExactRequirements) => byNetwork.get(exact.network)?.offer(exact),
    doorsOf: (network) => byNetwork.get(network)?.doors,
    terms,
    add(n) {
      if (byNetwork.has(n.network)) return
      networks.push(n)
      networks.sort((a, b) => rank(a.network) - rank(b.network))
      byNetwork.set(n.network, n)
      for (const k of Object.keys(terms)) delete terms[k]
      for (const m of networks) terms[m.network] = m.terms
      service.version++
      if (started) n.claimer.start()
    },
    start() {
      started = true
      for (const n of networks) n.claimer.start()
    },
    async stop() {
      o.stopping?.()
      const all = await Promise.all(networks.map((n) => n.claimer.stop()))
      return {
        claims: all.flatMap((r) => r.claims),
        sweeps: all.flatMap((r) => r.sweeps),
        failures: all.reduce((a, r) => a + r.failures, 0),
      }
    },
    async figures(since?: number) {
      const each = await Promise.all(networks.map((n) => n.figures(since)))
      const sum = (k: keyof ChannelFigures) => String(each.reduce((a, f) => a + BigInt(f[k] as string), 0n))
      const txs: Record<string, number> = {}
      for (const f of each) for (const [k, v] of Object.entries(f.txs)) txs[k] = (txs[k] ?? 0) + v
      return {
        network: each[0]?.network ?? '',
        channels: each.reduce((a, f) => a + f.channels, 0),
        paid_calls: each.reduce((a, f) => a + f.paid_calls, 0),
        earned_atomic: sum('earned_atomic'),
        claimed_atomic: sum('claimed_atomic'),
        swept_atomic: sum('swept_atomic'),
        deposited_atomic: sum('deposited_atomic'),
        gas_wei: sum('gas_wei'),
        sponsored_gas_wei: sum('sponsored_gas_wei'),
        sponsored_payers: each
          .flatMap((f) => f.sponsored_payers)
          .sort((a, b) => (BigInt(b.gas_wei) > BigInt(a.gas_wei) ? 1 : BigInt(b.gas_wei) < BigInt(a.gas_wei) ? -1 : 0))
          .slice(0, 10),
        txs,
        networks: each,
      }
    },
  }
  for (const n of initial) service.add(n)
  service.version = 0
  return service
}
