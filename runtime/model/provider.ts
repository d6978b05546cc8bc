import type { ModelClient } from '../sdk'
import type { ModelClientOptions } from './client'

export interface ModelProvider {
  /** False when neither a base URL nor an API key is configured: model services answer 503 before payment. */
  readonly available: boolean
  /** The client for one model label (cached). */
  forModel(model: string): ModelClient
}

/**
 * The provider from configuration (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, registry.yaml `models.base_url`).
 * The `openai` package and the JSON checker (./client) load on the first model call, not at boot.
 * @example
 * const models = modelProvider({ baseUrl: config.openai.baseUrl, apiKey: config.openai.apiKey })
 * ctx.model = models.forModel(svc.model)   // svc.model: manifest model or the operator's override
 */
export function modelProvider(opts: Omit<ModelClientOptions, 'model'>): ModelProvider {
  const available = Boolean(opts.baseUrl || opts.apiKey)
  const cache = new Map<string, ModelClient>()
  const lazyClient = (model: string): ModelClient => {
    let real: Promise<ModelClient> | undefined
    return {
      available,
      model,
      async complete(req) {
        real ??= import('./client').then((m) => m.createModelClient({ ...opts, model }))
        return (await real).complete(req)
      },
    }
  }
  return {
    available,
    forModel(model) {
      let c = cache.get(model)
      if (!c) cache.set(model, (c = lazyClient(model)))
      return c
    },
  }
}
