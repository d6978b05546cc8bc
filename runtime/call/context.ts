import type { CatalogService } from '../catalog/index'
import type { Config } from '../config'
import type { Logger, PaymentVerifier, TierName, UpstreamDefault } from '../sdk'
import type { ModelProvider } from '../model'
import type { PooledContext } from '../isolate/pool'
import { createSafeFetch } from '../net/safe-fetch'
import { createUpstreams } from '../net/upstream'
import { withUpstreamDefaults } from '../net/upstream-defaults'

/**
 * Builds each call's ServiceContext: request id, tier budget, clock, abort signal, and the configured network and
 * model clients; `caller` (the payer's address, or the client's address for a free call) is the worker pool's share.
 */
export function createContextFactory(
  config: Config,
  log: Logger,
  x402: PaymentVerifier,
  models: ModelProvider,
  upstreams: Record<string, UpstreamDefault>,
) {
  const safeFetch = createSafeFetch({ allowHosts: config.fetchAllowHosts })
  const upstream = createUpstreams(withUpstreamDefaults(upstreams, config.upstreams), fetch, {
    userAgent: config.upstreamUserAgent,
  })
  return (
    svc: CatalogService,
    tier: TierName,
    requestId: string,
    signal: AbortSignal,
    caller: string,
  ): PooledContext => ({
    caller,
    requestId,
    service: svc.slug,
    tier,
    maxTokens: svc.pricing[tier]?.max_tokens ?? 0,
    now: () => new Date(),
    signal,
    log,
    fetch: safeFetch,
    upstream,
    model: models.forModel(svc.model),
    x402,
  })
}
