import type { CatalogService } from './catalog'
import type { Config } from './config'
import { ServiceError, type Logger, type PaymentVerifier, type ServiceContext, type TierName } from './sdk'
import type { ModelProvider } from './model'

const notReady = (what: string) => () => {
  throw new ServiceError(503, 'NOT_CONFIGURED', `${what} is not available on this server`)
}

/** Builds each call's ServiceContext: request id, tier budget, clock, abort signal, and the configured network and model clients. */
export function createContextFactory(config: Config, log: Logger, x402: PaymentVerifier, models: ModelProvider) {
  return (svc: CatalogService, tier: TierName, requestId: string, signal: AbortSignal): ServiceContext => ({
    requestId,
    service: svc.slug,
    tier,
    maxTokens: svc.pricing[tier]?.max_tokens ?? 0,
    now: () => new Date(),
    signal,
    log,
    fetch: notReady('fetch') as ServiceContext['fetch'],
    upstream: notReady('upstream') as ServiceContext['upstream'],
    model: models.forModel(svc.model),
    x402,
  })
}
