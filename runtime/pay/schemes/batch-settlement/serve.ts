/**
 * Payment channels of one network (docs/channels.md): over the network's channel backend (the official
 * batch-settlement facilitator over our settlement pipeline, or a remote facilitator listing the scheme), the channel
 * doors over the storage's channel store, the 402's `batch-settlement` entry of that network, and the network's claim
 * and sweep engine (started at boot, stopped at shutdown after it claimed and swept everything). `./networks.ts`
 * puts the networks together for the paid call.
 * @module pay/schemes/batch-settlement/serve
 */
import type { Hex } from 'viem'
import type { Config, NetworkSetting } from '../../../config'
import type { ChannelStore, LedgerStore } from '../../../db/store'
import type { Logger } from '../../../sdk'
import type { PaymentRequirements as ExactRequirements } from '../../types'
import { ChannelClaimer, channelSettings } from './claimer'
import type { ChannelDoors } from './doors'
import { gasOf, type ChannelBackend } from './facilitator'
import { channelRequirements, DEFAULT_WITHDRAW_DELAY_S } from './requirements'
import type { ChannelTerms } from './scheme'

export { AUTHORIZER_LABEL } from './facilitator'

/** One network's channels. */
export interface ChannelNetwork {
  network: string
  doors: ChannelDoors
  /** The `batch-settlement` entry beside this network's `exact` one. */
  offer(exact: ExactRequirements): ReturnType<typeof channelRequirements>
  terms: ChannelTerms
  claimer: ChannelClaimer
  /** The address bound into every channel's config as `receiverAuthorizer`. */
  receiverAuthorizer: Hex
  /**
   * The network's channel money (atomic units and wei as decimal strings): all time (/stats), or since `since` (ms;
   * the console's window, the same as its exact figures).
   */
  figures(since?: number): Promise<ChannelFigures>
}

/** /stats `channels`: earned = charged vouchers, claimed on chain, swept to PAY_TO, deposits sponsored, gas. */
export interface ChannelFigures {
  network: string
  channels: number
  paid_calls: number
  earned_atomic: string
  claimed_atomic: string
  swept_atomic: string
  deposited_atomic: string
  gas_wei: string
  /** Gas of the deposits and refunds sent for payers (docs/channels.md "Sponsored gas"). */
  sponsored_gas_wei: string
  /** The payers sponsored most gas, most first (at most 10): full addresses; /stats shortens them. */
  sponsored_payers: SponsoredPayer[]
  txs: Record<string, number>
}

/** One payer's sponsored transactions and what its channels bought (atomic units, wei). */
export interface SponsoredPayer {
  payer: string
  network: string
  deposits: number
  refunds: number
  gas_wei: string
  earned_atomic: string
}

export function channelNetwork(o: {
  config: Config
  /** The network (one of config.networks). */
  net: NetworkSetting
  backend: ChannelBackend
  /** PAY_TO (a network's PAY_TO_<id> wins, as in the 402's `exact` entries). */
  payTo: string
  store: ChannelStore
  ledger: Pick<LedgerStore, 'exclusively'>
  log: Logger
}): ChannelNetwork {
  const { net, backend, ledger } = o
  const { facilitator, receiverAuthorizer, rpc } = backend
  const { policy, minDeposit } = channelSettings(o.config)
  // One entry per `exact` entry: the 402's entries are built once per resource and every voucher call asks again.
  const offered = new WeakMap<ExactRequirements, ReturnType<typeof channelRequirements>>()
  const offer = (exact: ExactRequirements) => {
    let r = offered.get(exact)
    if (!r) {
      r = channelRequirements(
        { ...exact, network: exact.network as `${string}:${string}` },
        { receiverAuthorizer, minDeposit },
      )
      offered.set(exact, r)
    }
    return r
  }
  const gas = rpc ? (tx: string) => gasOf(rpc, tx) : undefined
  const payTo = o.config.networks.length > 1 ? net.payTo || o.payTo : o.payTo
  const claimer = new ChannelClaimer({
    store: o.store,
    facilitator,
    rpc,
    requirements: offer({
      scheme: 'exact',
      network: net.network,
      amount: '0',
      asset: net.asset,
      payTo,
      maxTimeoutSeconds: o.config.maxTimeoutSeconds,
      extra: { name: net.assetName, version: net.assetVersion },
    }),
    policy,
    gasOf: gas,
    exclusively: ledger.exclusively ? (name, fn) => ledger.exclusively!(name, fn) : undefined,
    log: o.log,
  })
  return {
    network: net.network,
    doors: { store: o.store, facilitator, minDeposit, gasOf: gas, rpc },
    offer,
    terms: {
      min_deposit: minDeposit.toString(),
      withdraw_delay_s: DEFAULT_WITHDRAW_DELAY_S,
      receiver_authorizer: receiverAuthorizer,
    },
    claimer,
    receiverAuthorizer,
    async figures(since?: number) {
      const [t, payers] = await Promise.all([
        o.store.totals(net.network, since),
        o.store.sponsored(net.network, since ?? 0, 10),
      ])
      return {
        network: net.network,
        channels: t.channels,
        paid_calls: t.charges,
        earned_atomic: String(t.earned),
        claimed_atomic: String(t.claimed),
        swept_atomic: String(t.swept),
        deposited_atomic: String(t.deposited),
        gas_wei: String(t.gasWei),
        sponsored_gas_wei: String(t.sponsoredGasWei),
        sponsored_payers: payers.map((p) => ({
          payer: p.payer,
          network: p.network,
          deposits: p.deposits,
          refunds: p.refunds,
          gas_wei: String(p.gasWei),
          earned_atomic: String(p.earned),
        })),
        txs: t.txs,
      }
    },
  }
}
