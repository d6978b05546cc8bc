import type { Config } from '../../../config'
import { settlerKeys } from '../../../config/parse'
import type { Logger } from '../../../sdk'
import { createLocalFacilitator, type LocalFacilitatorOptions } from '../local'
import { createNetworkRouter } from './router'
import { remoteFacilitators } from '../remote-setup'
import type { Facilitator } from '../../types'
import type { Settler } from '../settle/settler'
import type { RemoteNetwork } from '../remote-channels'

/**
 * What boot builds payment channels on (docs/channels.md): the settler of a self-facilitated backend (`settler`, one
 * network) or of each self-facilitated network behind the router (`settlers`, by network), and the remote
 * facilitators of each remote network (`remotes`, by network; boot reads their /supported).
 */
export interface ChannelSources {
  settler?: Settler
  settlers?: Record<string, Settler>
  remotes?: Record<string, RemoteNetwork>
}

/**
 * NETWORKS: one backend per network (remote facilitators from FACILITATOR_URL_<CHAINID>, else self-facilitation with
 * RPC_URL_<CHAINID> and SETTLER_PRIVATE_KEYS_<CHAINID>) behind a router keyed by network. Settler boot reads are
 * done before returning (a chain that is down is retried by its first paid call). `local` tunes the local backends.
 * `settlers` and `remotes`: what payment channels are built on at boot (ChannelSources).
 */
export async function networkFacilitators(
  config: Config,
  log: Logger,
  local: Partial<LocalFacilitatorOptions> = {},
): Promise<Facilitator & Required<Omit<ChannelSources, 'settler'>>> {
  const byNetwork: Record<string, Facilitator> = {}
  const settlers: Record<string, Settler> = {}
  const remotes: Record<string, RemoteNetwork> = {}
  const assets: Record<string, string> = {}
  for (const n of config.networks) {
    assets[n.network] = n.asset
    if (n.facilitatorUrls.length) {
      const f = remoteFacilitators(config, log, {}, n)
      byNetwork[n.network] = f
      Object.assign(remotes, f.remotes)
      continue
    }
    const f = createLocalFacilitator({
      rpcUrl: n.rpcUrl,
      settlerKeys: settlerKeys(n.settlerPrivateKey),
      chainId: Number(n.network.split(':')[1]),
      ...local,
    })
    await f.settler.init().catch((e) =>
      log.warn('settler boot reads failed; retried on the first paid call', {
        network: n.network,
        error: (e as Error).message,
      }),
    )
    byNetwork[n.network] = f
    settlers[n.network] = f.settler
  }
  return { ...createNetworkRouter(byNetwork, assets), settlers, remotes }
}
