/**
 * Payment channels on every network that has them (NETWORKS; docs/channels.md): one `ChannelNetwork` each (its own
 * backend, receiver authorizer, PAY_TO and claim engine), put together as the paid call's `ChannelOffer`, which
 * dispatches on the network of the `exact` entry or the payment. A network without channels gets no
 * `batch-settlement` entry and its vouchers are refused.
 * @module pay/batch-settlement/networks
 */
import type { PaymentRequirements as ExactRequirements } from '../types'
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
  figures(): Promise<ChannelTotalsFigures>
}

export function channelService(networks: ChannelNetwork[]): ChannelService {
  if (!networks.length) throw new Error('channelService needs at least one network')
  const byNetwork = new Map(networks.map((n) => [n.network, n]))
  return {
    networks,
    offer: (exact: ExactRequirements) => byNetwork.get(exact.network)?.offer(exact),
    doorsOf: (network) => byNetwork.get(network)?.doors,
    terms: Object.fromEntries(networks.map((n) => [n.network, n.terms])),
    start() {
      for (const n of networks) n.claimer.start()
    },
    async stop() {
      const all = await Promise.all(networks.map((n) => n.claimer.stop()))
      return {
        claims: all.flatMap((r) => r.claims),
        sweeps: all.flatMap((r) => r.sweeps),
        failures: all.reduce((a, r) => a + r.failures, 0),
      }
    },
    async figures() {
      const each = await Promise.all(networks.map((n) => n.figures()))
      const sum = (k: keyof ChannelFigures) => String(each.reduce((a, f) => a + BigInt(f[k] as string), 0n))
      const txs: Record<string, number> = {}
      for (const f of each) for (const [k, v] of Object.entries(f.txs)) txs[k] = (txs[k] ?? 0) + v
      return {
        network: each[0].network,
        channels: each.reduce((a, f) => a + f.channels, 0),
        paid_calls: each.reduce((a, f) => a + f.paid_calls, 0),
        earned_atomic: sum('earned_atomic'),
        claimed_atomic: sum('claimed_atomic'),
        swept_atomic: sum('swept_atomic'),
        deposited_atomic: sum('deposited_atomic'),
        gas_wei: sum('gas_wei'),
        txs,
        networks: each,
      }
    },
  }
}
