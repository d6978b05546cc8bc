import type { Config } from '../../../config'
import { settlerKeys } from '../../../config/parse'
import type { Logger } from '../../../sdk'
import { createLocalFacilitator, type LocalFacilitatorOptions } from '../local'
import { createNetworkRouter } from './router'
import { remoteFacilitators } from '../remote-setup'
import type { Facilitator } from '../../types'
import type { Settler } from '../settle/settler'

/**
 * What boot builds payment channels on (docs/channels.md): the settler of a self-facilitated backend (`settler`, one
 * network) or of each self-facilitated network behind the router (`settlers`, by network).
 */
export interface SelfFacilitated {
  settler?: Settler
  settlers?: Record<string, Settler>
}

/**
 * NETWORKS: one backend per network (remote facilitators from FACILITATOR_URL_<CHAINID>, else self-facilitation with
 * RPC_URL_<CHAINID> and SETTLER_PRIVATE_KEYS_<CHAINID>) behind a router keyed by network. Settler boot reads are
 * done before returning (a chain that is down is retried by its first paid call). `local` tunes the local backends.
 * `settlers`: each self-facilitated network's settler (payment channels are built on them at boot).
 */
export async function networkFacilitators(
  config: Config,
  log: Logger,
  local: Partial<LocalFacilitatorOptions> = {},
): Promise<Facilitator & { settlers: Record<string, Settler> }> {
  const byNetwork: Record<string, Facilitator> = {}
  const settlers: Record<string, Settler> = {}
  const assets: Record<string, string> = {}
  for (const n of config.networks) {
    assets[n.network] = n.asset
    if (n.facilitatorUrls.length) {
      byNetwork[n.network] = remoteFacilitators(config, log, {}, n)
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
  return { ...createNetworkRouter(byNetwork, assets), settlers }
}
