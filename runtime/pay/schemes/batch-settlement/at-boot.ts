/**
 * Builds a network's payment channels (docs/channels.md) on what its backend offers: self-facilitation (that
 * network's settler) or remote facilitators that list `batch-settlement` (read from /supported). Loaded by
 * `./boot-channels.ts` only when some network has one (it pulls in the official facilitator and viem).
 * @module pay/schemes/batch-settlement/at-boot
 */
import type { Config } from '../../../config'
import type { ChannelStore, LedgerStore } from '../../../db/store'
import type { Logger } from '../../../sdk'
import type { RemoteChannels } from '../../facilitator/remote-channels'
import type { Settler } from '../../facilitator/settle/settler'
import { DEFAULT_POLICY } from './claimer'
import { localChannelBackend, type ChannelBackend } from './facilitator'
import { DEFAULT_WITHDRAW_DELAY_S } from './requirements'
import { channelNetwork, type ChannelNetwork } from './serve'

/** What every network's channels share. */
export interface ChannelsContext {
  config: Config
  payTo: string
  store: ChannelStore
  ledger: Pick<LedgerStore, 'exclusively'>
  log: Logger
}

/**
 * One network's channels over its settler or its listing remote facilitators; none (logged) without an authorizer.
 * The remote backend's module (with `@x402/evm`'s root entry and viem's) loads only for a remote facilitator.
 */
export async function networkChannels(
  c: ChannelsContext,
  network: string,
  on: { settler?: Settler; remote?: RemoteChannels },
): Promise<ChannelNetwork | undefined> {
  const net = c.config.networks.find((n) => n.network === network)
  const key = c.config.channels.receiverAuthorizerKey
  let backend: ChannelBackend | undefined
  if (on.settler) backend = localChannelBackend(on.settler, network, key)
  else if (on.remote && !key && !on.remote.advertised)
    c.log.warn(
      'no payment channels on this network: its facilitator lists batch-settlement but advertises no receiverAuthorizer, and CHANNEL_RECEIVER_AUTHORIZER_KEY is not set',
      { network },
    )
  else if (on.remote) {
    const { remoteChannelBackend } = await import('./remote')
    backend = remoteChannelBackend({ ...on.remote, authorizerKey: key })
    if (!on.remote.rpcUrl) warnWithoutWatch(c.config, network, c.log)
  }
  if (!net || !backend) return undefined
  return channelNetwork({ ...c, net, backend })
}

/** The channels of every network with a settler or listing remote facilitators, in NETWORKS order. */
export async function channelsAtBoot(
  c: ChannelsContext & { settlers: Record<string, Settler>; remotes: Record<string, RemoteChannels> },
): Promise<ChannelNetwork[]> {
  const all = await Promise.all(
    c.config.networks.map((n) =>
      networkChannels(c, n.network, { settler: c.settlers[n.network], remote: c.remotes[n.network] }),
    ),
  )
  return all.flatMap((n) => n ?? [])
}

/**
 * Without an RPC URL the claim engine cannot watch for payers' timed withdrawals: a charge is claimed by the claim
 * interval (or its threshold) only, so a payer could withdraw charges the interval has not claimed yet. Warned when
 * the interval is not well under the withdrawal delay (more than a quarter of it).
 */
function warnWithoutWatch(config: Config, network: string, log: Logger): void {
  const intervalS = config.channels.claimIntervalS || DEFAULT_POLICY.claimIntervalMs / 1000
  const level = intervalS * 4 > DEFAULT_WITHDRAW_DELAY_S ? 'warn' : 'info'
  log[level](
    'payment channels over a remote facilitator without an RPC URL: no watch of timed withdrawals; charges are claimed by CHANNEL_CLAIM_INTERVAL_S (keep it well under the withdrawal delay)',
    { network, claim_interval_s: intervalS, withdraw_delay_s: DEFAULT_WITHDRAW_DELAY_S },
  )
}
