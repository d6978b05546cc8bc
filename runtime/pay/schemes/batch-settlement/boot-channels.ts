/**
 * The payment channels boot serves (docs/channels.md): every network this server facilitates itself, and every
 * network whose remote facilitators list `batch-settlement` in /supported, read at boot; a network whose facilitators
 * did not answer is asked again while running and added when they list it. Light: the official facilitator and viem
 * (`./at-boot.ts`) load only when some network has channels (test/boot/lazy-modules.test.ts).
 * @module pay/schemes/batch-settlement/boot-channels
 */
import { usesDevChain } from '../../../config'
import { remoteChannelsAtBoot, retryRemoteChannels, type RemoteNetwork } from '../../facilitator/remote-channels'
import type { Settler } from '../../facilitator/settle/settler'
import type { ChannelsContext } from './at-boot'
import { channelService, type ChannelService } from './networks'

/** The scheme's plugin, for boot to register beside `exact` (loaded with this module, only where channels can run). */
export { channelScheme } from './scheme'

export async function bootChannels(
  c: ChannelsContext & { settlers: Record<string, Settler>; remotes?: Record<string, RemoteNetwork> },
): Promise<ChannelService | undefined> {
  const oursSigns = Boolean(c.config.channels.receiverAuthorizerKey)
  const settlers = sharedAuthorizer(c) ? c.settlers : {}
  const { found, pending } = c.remotes
    ? await remoteChannelsAtBoot(c.remotes, { skip: Object.keys(c.settlers), oursSigns, log: c.log })
    : { found: {}, pending: {} }
  const heavy = () => import('./at-boot')
  const initial =
    Object.keys(settlers).length || Object.keys(found).length
      ? await (await heavy()).channelsAtBoot({ ...c, settlers, remotes: found })
      : []
  if (!initial.length && !Object.keys(pending).length) return undefined
  let cancel = () => {}
  const service = channelService(initial, {
    order: c.config.networks.map((n) => n.network),
    stopping: () => cancel(),
  })
  if (Object.keys(pending).length)
    cancel = retryRemoteChannels(pending, {
      oursSigns,
      log: c.log,
      async found(r) {
        const n = await (await heavy()).networkChannels(c, r.network, { remote: r })
        if (n) service.add(n)
      },
    })
  return service
}

/**
 * Self-facilitated channels on a shared Postgres need one receiver authorizer for every instance: each instance has
 * its own settler keys (docs/deploy.md), so an authorizer derived from them would differ per instance, and a channel
 * opened through one instance could be neither paid through nor claimed by another. Without
 * CHANNEL_RECEIVER_AUTHORIZER_KEY those networks offer no channels (warned at boot); the dev chain's settler key is
 * the same everywhere, so it needs none.
 */
function sharedAuthorizer(c: ChannelsContext & { settlers: Record<string, Settler> }): boolean {
  const networks = Object.keys(c.settlers)
  if (!networks.length || !c.config.database.url || c.config.channels.receiverAuthorizerKey || usesDevChain(c.config))
    return true
  c.log.warn(
    'payment channels are off on the self-facilitated networks: instances sharing DATABASE_URL must share CHANNEL_RECEIVER_AUTHORIZER_KEY (the receiver authorizer bound into every channel); set it to offer channels',
    { networks },
  )
  return false
}
