import type { Config } from '../config'
import type { CatalogService } from '../catalog'
import type { TierName } from '../sdk'
import type { PaymentRequirements } from './types'
import { metadataOf } from '../discovery/metadata'
import { PAYMENT_IDENTIFIER_DECLARATION } from './payment-id'
import { v1NetworkOf } from './networks'

/**
 * Our requirements for one service and tier: deterministic, so the client's echo can be compared exactly.
 * Only x402 v2 PaymentRequirements fields (no v1 mimeType/resource/description: those live in `resource`).
 */
export function requirementsFor(cfg: Config, svc: CatalogService, tier: TierName, payTo: string): PaymentRequirements {
  return {
    scheme: 'exact',
    network: cfg.network,
    amount: svc.amounts[tier]!,
    asset: cfg.asset,
    payTo,
    maxTimeoutSeconds: cfg.maxTimeoutSeconds,
    extra: { name: cfg.assetName, version: cfg.assetVersion },
  }
}

/** The v1 form of the same requirements, for legacy x402-fetch 1.x clients that read the 402 body. */
export function toV1(req: PaymentRequirements, resource: string, description: string, outputSchema?: unknown) {
  return {
    scheme: req.scheme,
    network: v1NetworkOf(req.network),
    maxAmountRequired: req.amount,
    resource,
    description,
    mimeType: 'application/json',
    payTo: req.payTo,
    maxTimeoutSeconds: req.maxTimeoutSeconds,
    asset: req.asset,
    ...(outputSchema ? { outputSchema } : {}),
    extra: { name: req.extra.name, version: req.extra.version },
  }
}

/** Standard base64 of UTF-8 JSON (what x402 headers carry). */
export const b64json = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8').toString('base64')

/**
 * The 402 challenge: `PAYMENT-REQUIRED` header (v2 PaymentRequired with the bazaar extension) and a body with
 * the spec §2.4 fields plus a v1 `accepts` array. `reason` says why an attempted payment was refused.
 */
export function challenge(
  cfg: Config,
  svc: CatalogService,
  tier: TierName,
  payTo: string,
  resource: string,
  reason?: string,
) {
  const req = requirementsFor(cfg, svc, tier, payTo)
  const description = `${svc.manifest.name}: ${svc.manifest.description}`.slice(0, 500)
  const paymentRequired = {
    x402Version: 2,
    ...(reason ? { error: reason } : {}),
    resource: { url: resource, description, mimeType: 'application/json', ...metadataOf(cfg, svc) },
    accepts: [req],
    extensions: { ...svc.bazaar, ...PAYMENT_IDENTIFIER_DECLARATION },
  }
  const body = {
    error: 'Payment Required',
    ...(reason ? { reason } : {}),
    price: String(svc.pricing[tier]!.price_usd),
    currency: 'USDC',
    network: cfg.network,
    wallet: payTo,
    paymentMethods: ['x402'],
    x402: { x402Version: 2, scheme: 'exact', mimeType: 'application/json' },
    x402Version: 1,
    accepts: [toV1(req, resource, description)],
    service: svc.slug,
    tier,
  }
  return { header: b64json(paymentRequired), body, paymentRequired, requirements: req }
}
