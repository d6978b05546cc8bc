import type { Config, NetworkSetting } from '../../config'
import type { Logger } from '../../sdk'
import { createCdpAuth } from './cdp-auth'
import { createChainReader } from './chain-status'
import { provenSettle } from './proven-settle'
import { createFacilitatorList } from './remote-list'
import { createRemoteFacilitator } from './remote'
import type { RemoteNetwork } from './remote-channels'

/**
 * FACILITATOR_URL (a comma-separated list) as one Facilitator: tried in order behind circuit breakers, every
 * request authenticated with a fresh CDP JWT when CDP_API_KEY_ID/SECRET are set (else FACILITATOR_AUTH_HEADER).
 * With RPC_URL too, settle answers are proven and reconciliation reads settlement status from the chain, and payer
 * balances are read for the in-flight hold. Checks each facilitator's /supported in the background and warns when it does not list our network.
 */
export function remoteFacilitators(
  config: Config,
  log: Logger,
  timeouts: { verifyTimeoutMs?: number; settleTimeoutMs?: number } = {},
  net: NetworkSetting = config.networks[0],
) {
  const auth = config.cdp.apiKeyId ? createCdpAuth(config.cdp.apiKeyId, config.cdp.apiKeySecret) : undefined
  const members = net.facilitatorUrls.map((url) =>
    createRemoteFacilitator({ url, auth, authHeader: config.facilitatorAuthHeader || undefined, ...timeouts }),
  )
  // With RPC_URL as well: pending settlements are resolved from the chain, every settle answer is checked there by
  // proof before it counts, and payers' balances are read for the in-flight hold, as with self-facilitation.
  // Without it: at most one unsettled paid call per payer (runtime/pay/schemes/exact/payer-funds.ts).
  const chain = net.rpcUrl ? createChainReader(net.rpcUrl) : undefined
  if (!chain)
    log.info(
      'facilitator mode without RPC_URL: settle answers are taken unproven and each payer may have one unsettled paid call at a time (set RPC_URL to check them on chain)',
      {
        network: net.network,
      },
    )
  const breakers = { failures: config.facilitatorFailures, cooldownMs: config.facilitatorCooldownSeconds * 1000 }
  const list = createFacilitatorList(members, { ...breakers, log, status: chain?.status })
  // One /supported check in the background; payment channels (docs/channels.md) read its answers at boot, and ask
  // again on a later read.
  let checked: ReturnType<typeof list.supported> | undefined = list.supported()
  const remote: RemoteNetwork = {
    members,
    supported: () => {
      const first = checked
      checked = undefined
      return first ?? list.supported()
    },
    breakers: { ...breakers, log },
    ...(net.rpcUrl ? { rpcUrl: net.rpcUrl } : {}),
  }
  const remotes = { [net.network]: remote }
  void checked.then((all) => {
    for (const s of all) {
      if (s.error) log.warn('facilitator /supported failed', { facilitator: s.url, error: s.error })
      else if (!s.kinds?.some((k) => k.x402Version === 2 && k.scheme === 'exact' && k.network === net.network))
        log.warn('facilitator does not list this network', { facilitator: s.url, network: net.network })
    }
  })
  return chain
    ? { ...list, settle: provenSettle(list.settle, chain.status), balance: chain.balance, remotes }
    : { ...list, remotes }
}
