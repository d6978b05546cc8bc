/**
 * `x-service-info` at the root of both OpenAPI documents (the payment-discovery draft's service block, as read by
 * OpenAPI-based payment indexers): the catalog's categories, in listing order, and where the docs are (the site,
 * the browsable reference, /llms.txt), plus the A2A agent card and the MCP endpoint.
 * @module discovery/service-info
 */
import type { CatalogService } from '../catalog/index'
import type { Config } from '../config'

export function serviceInfo(services: CatalogService[], cfg: Config) {
  const base = cfg.provider.apiBase
  const categories = [...services]
    .sort((a, b) => a.categoryRank - b.categoryRank)
    .flatMap((s) => (s.tags[0] ? [s.tags[0]] : []))
  return {
    categories: [...new Set(categories)],
    docs: {
      homepage: cfg.provider.website,
      apiReference: `${base}/docs`,
      llms: `${base}/llms.txt`,
    },
    agentCard: `${base}/.well-known/agent-card.json`,
    mcp: `${base}/mcp`,
  }
}
