import type { Config } from '../../../config'
import { settlerKeys } from '../../../config/parse'
import type { Logger } from '../../../sdk'
import { createLocalFacilitator, type LocalFacilitatorOptions } from '../local'
import { createNetworkRouter } from './router'
import { remoteFacilitators } from '../remote-setup'
import type { Facilitator } from '../../types'

/**
 * NETWORKS: one backend per network (remote facilitators from FACILITATOR_URL_<CHAINID>, else self-facilitation with
 * RPC_URL_<CHAINID> and SETTLER_PRIVATE_KEYS_<CHAINID>) behind a router keyed by network. Settler boot reads are
 * done before returning (a chain that is down is retried by its first paid call). `local` tunes the local backends.
 */
export async function networkFacilitators(
  config: Config,
  log: Logger,
  local: Partial<LocalFacilitatorOptions> = {},
): Promise<Facilitator> {
  const byNetwork: Record<string, Facilitator> = {}
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
  }
  return createNetworkRouter(byNetwork, assets)
}
