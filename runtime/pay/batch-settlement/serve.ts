/**
 * Payment channels served by this server (docs/channels.md): with self-facilitation on one network, the official
 * batch-settlement facilitator over our settlement pipeline, the channel doors over the storage's channel store, the
 * 402's `batch-settlement` entry, and the claim and sweep engine (started at boot, stopped at shutdown after it
 * claimed and swept everything).
 * @module pay/batch-settlement/serve
 */
import type { Hex } from 'viem'
import type { Config } from '../../config'
import type { ChannelStore, LedgerStore } from '../../db/store'
import type { Logger } from '../../sdk'
import type { Settler } from '../facilitator/settle/settler'
import type { PaymentRequirements as ExactRequirements } from '../types'
import { ChannelClaimer, channelSettings, type RoundResult } from './claimer'
import { channelFacilitator, gasOf } from './facilitator'
import { channelRequirements, DEFAULT_WITHDRAW_DELAY_S } from './requirements'
import type { ChannelOffer } from './scheme'

/** The label of the receiver-authorizer key derived from the first settler key (CHANNEL_RECEIVER_AUTHORIZER_KEY unset). */
export const AUTHORIZER_LABEL = 'x402 batch-settlement receiver authorizer'

export interface ChannelService extends ChannelOffer {
  claimer: ChannelClaimer
  /** The address bound into every channel's config as `receiverAuthorizer`. */
  receiverAuthorizer: Hex
  /** Starts the claim rounds. */
  start(): void
  /** Stops the rounds, claims every channel with anything unclaimed and sweeps to PAY_TO. */
  stop(): Promise<RoundResult>
  /**
   * The channels' money (atomic units and wei as decimal strings): all time (/stats), or since `since` (ms; the
   * console's window, the same as its exact figures).
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
  txs: Record<string, number>
}

export function channelService(o: {
  config: Config
  settler: Settler
  payTo: string
  store: ChannelStore
  ledger: Pick<LedgerStore, 'exclusively'>
  log: Logger
}): ChannelService {
  const net = o.config.networks[0]
  const key = (o.config.channels.receiverAuthorizerKey || o.settler.derivedKey(AUTHORIZER_LABEL)) as Hex
  const { facilitator, receiverAuthorizer } = channelFacilitator(o.settler, key, [net.network])
  const { policy, minDeposit } = channelSettings(o.config)
  const offer = (exact: ExactRequirements) =>
    channelRequirements(
      { ...exact, network: exact.network as `${string}:${string}` },
      { receiverAuthorizer, minDeposit },
    )
  const gas = (tx: string) => gasOf(o.settler.rpc, tx)
  const { ledger } = o
  const claimer = new ChannelClaimer({
    store: o.store,
    facilitator,
    rpc: o.settler.rpc,
    requirements: offer({
      scheme: 'exact',
      network: net.network,
      amount: '0',
      asset: net.asset,
      payTo: net.payTo || o.payTo,
      maxTimeoutSeconds: o.config.maxTimeoutSeconds,
      extra: { name: net.assetName, version: net.assetVersion },
    }),
    policy,
    gasOf: gas,
    exclusively: ledger.exclusively ? (name, fn) => ledger.exclusively!(name, fn) : undefined,
    log: o.log,
  })
  return {
    doors: { store: o.store, facilitator, minDeposit, gasOf: gas },
    offer,
    terms: {
      min_deposit: minDeposit.toString(),
      withdraw_delay_s: DEFAULT_WITHDRAW_DELAY_S,
      receiver_authorizer: receiverAuthorizer,
    },
    claimer,
    receiverAuthorizer,
    start: () => claimer.start(),
    stop: () => claimer.stop(),
    async figures(since?: number) {
      const t = await o.store.totals(net.network, since)
      return {
        network: net.network,
        channels: t.channels,
        paid_calls: t.charges,
        earned_atomic: String(t.earned),
        claimed_atomic: String(t.claimed),
        swept_atomic: String(t.swept),
        deposited_atomic: String(t.deposited),
        gas_wei: String(t.gasWei),
        txs: t.txs,
      }
    },
  }
}
