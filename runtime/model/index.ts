/**
 * Model clients for the runtime: one shared provider configuration, one client per model label.
 * @module model
 */
import type { ModelClient } from '../sdk'
import { createModelClient, type ModelClientOptions } from './client'

export { createModelClient, providerError, type ModelClientOptions } from './client'
export { checkJson, stripFence } from './json'
export { DATA_OPEN, DATA_CLOSE, DATA_RULE, wrapData } from './messages'

export interface ModelProvider {
  /** False when neither a base URL nor an API key is configured: model services answer 503 before payment. */
  readonly available: boolean
  /** The client for one model label (cached). */
  forModel(model: string): ModelClient
}

/**
 * The provider from configuration (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, registry.yaml `models.base_url`).
 * @example
 * const models = modelProvider({ baseUrl: config.openai.baseUrl, apiKey: config.openai.apiKey })
 * ctx.model = models.forModel(svc.model)   // svc.model: manifest model or the operator's override
 */
export function modelProvider(opts: Omit<ModelClientOptions, 'model'>): ModelProvider {
  const cache = new Map<string, ModelClient>()
  return {
    available: Boolean(opts.baseUrl || opts.apiKey),
    forModel(model) {
      let c = cache.get(model)
      if (!c) cache.set(model, (c = createModelClient({ ...opts, model })))
      return c
    },
  }
}
