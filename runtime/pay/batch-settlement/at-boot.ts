/**
 * The payment channels boot serves (docs/channels.md): a `ChannelNetwork` on every network whose backend can run them
 * (self-facilitation: that network's settler; a remote facilitator that lists `batch-settlement` for it, read from
 * /supported by boot), put together as one `ChannelService`, or none.
 * @module pay/batch-settlement/at-boot
 */
import type { Config } from '../../config'
import type { ChannelStore, LedgerStore } from '../../db/store'
import type { Logger } from '../../sdk'
import type { RemoteChannels } from '../facilitator/remote-channels'
import type { Settler } from '../facilitator/settle/settler'
import { DEFAULT_POLICY } from './claimer'
import { localChannelBackend, type ChannelBackend } from './facilitator'
import { channelService, type ChannelService } from './networks'
import { remoteChannelBackend } from './remote'
import { DEFAULT_WITHDRAW_DELAY_S } from './requirements'
import { channelNetwork } from './serve'

export function channelsAtBoot(o: {
  config: Config
  /** The settler of each self-facilitated network. */
  settlers: Record<string, Settler>
  /** The remote facilitators listing `batch-settlement`, of each remote network that has any. */
  remotes: Record<string, RemoteChannels>
  payTo: string
  store: ChannelStore
  ledger: Pick<LedgerStore, 'exclusively'>
  log: Logger
}): ChannelService | undefined {
  const key = o.config.channels.receiverAuthorizerKey
  const backends: ChannelBackend[] = []
  for (const net of o.config.networks) {
    const settler = o.settlers[net.network]
    const remote = o.remotes[net.network]
    if (settler) backends.push(localChannelBackend(settler, net.network, key))
    else if (remote && !key && !remote.advertised)
      o.log.warn(
        'no payment channels on this network: its facilitator lists batch-settlement but advertises no receiverAuthorizer, and CHANNEL_RECEIVER_AUTHORIZER_KEY is not set',
        { network: net.network },
      )
    else if (remote) {
      backends.push(remoteChannelBackend({ ...remote, authorizerKey: key }))
      if (!remote.rpcUrl) warnWithoutWatch(o.config, net.network, o.log)
    }
  }
  const networks = backends.map((backend) =>
    channelNetwork({
      config: o.config,
      net: o.config.networks.find((n) => n.network === backend.network)!,
      backend,
      payTo: o.payTo,
      store: o.store,
      ledger: o.ledger,
      log: o.log,
    }),
  )
  return networks.length ? channelService(networks) : undefined
}

/**
 * Without an RPC URL the claim engine cannot watch for payers' timed withdrawals: a charge is claimed by the claim
 * interval (or its threshold) only, so a payer could withdraw charges the interval has not claimed yet. Warned when
 * the interval is not well under the withdrawal delay (under a quarter of it).
 */
function warnWithoutWatch(config: Config, network: string, log: Logger): void {
  const intervalS = config.channels.claimIntervalS || DEFAULT_POLICY.claimIntervalMs / 1000
  const level = intervalS * 4 > DEFAULT_WITHDRAW_DELAY_S ? 'warn' : 'info'
  log[level](
    'payment channels over a remote facilitator without an RPC URL: no watch of timed withdrawals; charges are claimed by CHANNEL_CLAIM_INTERVAL_S (keep it well under the withdrawal delay)',
    { network, claim_interval_s: intervalS, withdraw_delay_s: DEFAULT_WITHDRAW_DELAY_S },
  )
}
