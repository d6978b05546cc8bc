import type { Config, NetworkSetting } from '../../config'
import type { CatalogService } from '../../catalog'
import type { TierName } from '../../sdk'
import type { PaymentRequirements as X402Requirements } from '@x402/core/types'
import type { DecodedPayment, PaymentRequirements } from '../types'
import { metadataOf } from '../../discovery/metadata'
import { PAYMENT_IDENTIFIER_DECLARATION } from './payment-id'
import { networkOfV1, V1_NETWORKS } from '../networks'
import { b64json, toV1 } from '../wire'

/**
 * Our requirements for one service and tier: deterministic, so the client's echo can be compared exactly.
 * Only x402 v2 PaymentRequirements fields (no v1 mimeType/resource/description: those live in `resource`).
 */
export function requirementsFor(
  cfg: Config,
  svc: CatalogService,
  tier: TierName,
  payTo: string,
  net: Pick<NetworkSetting, 'network' | 'asset' | 'assetName' | 'assetVersion'> = cfg.networks[0],
): PaymentRequirements {
  return {
    scheme: 'exact',
    network: net.network,
    amount: svc.amounts[tier]!,
    asset: net.asset,
    payTo,
    maxTimeoutSeconds: cfg.maxTimeoutSeconds,
    extra: { name: net.assetName, version: net.assetVersion },
  }
}

/** The requirements of every accepted network (NETWORKS), the first network's first; one entry for one network. */
export function acceptsFor(cfg: Config, svc: CatalogService, tier: TierName, payTo: string): PaymentRequirements[] {
  return cfg.networks?.length > 1
    ? cfg.networks.map((n) => requirementsFor(cfg, svc, tier, n.payTo || payTo, n))
    : [requirementsFor(cfg, svc, tier, payTo)]
}

/**
 * The accepts entry of the network a payment names (v2 `accepted.network`, v1 `network`), or the first one: an
 * unknown network then fails the cheap checks with `invalid_network`, before any RPC.
 */
export function requirementsOfPayment(accepts: PaymentRequirements[], p?: DecodedPayment): PaymentRequirements {
  if (accepts.length === 1 || !p) return accepts[0]
  const network = p.x402Version === 2 ? p.network : networkOfV1(p.network)
  return accepts.find((r) => r.network === network) ?? accepts[0]
}

/** What the 402 body says about input checks: a wrong body is refused unpaid, so nobody signs for it. */
export const BODY_CHECKED_FIRST =
  'The body is checked before payment: send the body you mean to pay for and an invalid one is answered 400/415/422 (saying what to send) without a 402; an empty body or {} only reads the price.'

/** Payment channels in the 402: the `batch-settlement` entry beside an `exact` one, or a corrective one instead. */
export interface ChannelEntries {
  /** None where the entry's network has no channels. */
  offer(exact: PaymentRequirements): X402Requirements | undefined
  /** A cumulative mismatch: this entry (with the spec's corrective `extra`) replaces the offer of its network. */
  corrective?: X402Requirements
}

/**
 * The 402 challenge: `PAYMENT-REQUIRED` header (v2 PaymentRequired with the bazaar extension) and a body with
 * the spec §2.4 fields plus a v1 `accepts` array. `reason` says why an attempted payment was refused. With
 * `channels`, the v2 `accepts` lists every `exact` entry first, then the `batch-settlement` ones of the networks offering channels (v1 stays exact).
 * `accepts` (returned) is the exact entries only: what the `exact` admission checks a payment against.
 */
export function challenge(
  cfg: Config,
  svc: CatalogService,
  tier: TierName,
  payTo: string,
  resource: string,
  reason?: string,
  channels?: ChannelEntries,
) {
  const accepts = acceptsFor(cfg, svc, tier, payTo)
  const req = accepts[0]
  const corrective = channels?.corrective
  const offered: Array<PaymentRequirements | X402Requirements> = channels
    ? [
        ...accepts,
        ...accepts.flatMap((r) => (corrective?.network === r.network ? corrective : channels.offer(r)) ?? []),
      ]
    : accepts
  const description = `${svc.manifest.name}: ${svc.manifest.description}`.slice(0, 500)
  const paymentRequired = {
    x402Version: 2,
    ...(reason ? { error: reason } : {}),
    resource: { url: resource, description, mimeType: 'application/json', ...metadataOf(cfg, svc) },
    accepts: offered,
    extensions: { ...svc.bazaar, ...PAYMENT_IDENTIFIER_DECLARATION },
  }
  const body = {
    error: 'Payment Required',
    ...(reason ? { reason } : {}),
    price: String(svc.pricing[tier]!.price_usd),
    currency: 'USDC',
    network: cfg.networks[0].network,
    wallet: payTo,
    paymentMethods: ['x402'],
    x402: { x402Version: 2, scheme: 'exact', mimeType: 'application/json' },
    x402Version: 1,
    // v1 clients name networks ('base'): with several networks, those without a v1 name are left out here.
    accepts: (accepts.length > 1 ? accepts.filter((r) => V1_NETWORKS[r.network]) : accepts).map((r) =>
      toV1(r, resource, description),
    ),
    service: svc.slug,
    tier,
    validation: BODY_CHECKED_FIRST,
  }
  return { header: b64json(paymentRequired), body, paymentRequired, requirements: req, accepts }
}
