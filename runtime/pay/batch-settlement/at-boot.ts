/**
 * The payment channels boot serves (docs/channels.md): a `ChannelNetwork` on every network whose backend can run them
 * (self-facilitation: that network's settler), put together as one `ChannelService`, or none.
 * @module pay/batch-settlement/at-boot
 */
import type { Config } from '../../config'
import type { ChannelStore, LedgerStore } from '../../db/store'
import type { Logger } from '../../sdk'
import type { Settler } from '../facilitator/settle/settler'
import { localChannelBackend, type ChannelBackend } from './facilitator'
import { channelService, type ChannelService } from './networks'
import { channelNetwork } from './serve'

export function channelsAtBoot(o: {
  config: Config
  /** The settler of each self-facilitated network. */
  settlers: Record<string, Settler>
  payTo: string
  store: ChannelStore
  ledger: Pick<LedgerStore, 'exclusively'>
  log: Logger
}): ChannelService | undefined {
  const backends: ChannelBackend[] = []
  for (const net of o.config.networks) {
    const settler = o.settlers[net.network]
    if (settler) backends.push(localChannelBackend(settler, net.network, o.config.channels.receiverAuthorizerKey))
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
