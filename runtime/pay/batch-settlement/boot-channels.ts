/**
 * The payment channels boot serves (docs/channels.md): every network this server facilitates itself, and every
 * network whose remote facilitators list `batch-settlement` in /supported, read at boot; a network whose facilitators
 * did not answer is asked again while running and added when they list it. Light: the official facilitator and viem
 * (`./at-boot.ts`) load only when some network has channels (test/boot/lazy-modules.test.ts).
 * @module pay/batch-settlement/boot-channels
 */
import { remoteChannelsAtBoot, retryRemoteChannels, type RemoteNetwork } from '../facilitator/remote-channels'
import type { Settler } from '../facilitator/settle/settler'
import type { ChannelsContext } from './at-boot'
import { channelService, type ChannelService } from './networks'

export async function bootChannels(
  c: ChannelsContext & { settlers: Record<string, Settler>; remotes?: Record<string, RemoteNetwork> },
): Promise<ChannelService | undefined> {
  const oursSigns = Boolean(c.config.channels.receiverAuthorizerKey)
  const { found, pending } = c.remotes
    ? await remoteChannelsAtBoot(c.remotes, { skip: Object.keys(c.settlers), oursSigns, log: c.log })
    : { found: {}, pending: {} }
  const heavy = () => import('./at-boot')
  const initial =
    Object.keys(c.settlers).length || Object.keys(found).length
      ? (await heavy()).channelsAtBoot({ ...c, remotes: found })
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
        const n = (await heavy()).networkChannels(c, r.network, { remote: r })
        if (n) service.add(n)
      },
    })
  return service
}
