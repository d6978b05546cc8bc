import type { CatalogService } from '../catalog/index'
import type { Config } from '../config'
import { errorBody, newRequestId } from '../http/respond'
import { ServiceError } from '../sdk'
import { prepareInput } from '../input/validate'
import { objectResult, type ToolResult } from './results'
import { createSearch, oneLine } from './search'
import { describeInput, priceLine, searchInput } from './tools'

/** A 4xx from a free tool, in the same error shape as HTTP. */
export function errorResult(e: ServiceError): ToolResult {
  return objectResult(errorBody(e, newRequestId()), true)
}

/** search_services and describe_service: answered from the catalog, no payment, no I/O. */
export function createFreeTools(services: CatalogService[], config: Config) {
  const bySlug = new Map(services.map((s) => [s.slug, s]))
  const search = createSearch(services)
  /** The service of a slug (any case), or a 404 that suggests near slugs. */
  const find = (slug: string): CatalogService => {
    const s = bySlug.get(slug.trim().toLowerCase())
    if (s) return s
    const near = search(slug.replace(/[-_]/g, ' '), 3).results.map((r) => r.slug)
    throw new ServiceError(
      404,
      'NOT_FOUND',
      `No service '${slug}'.${near.length ? ` Did you mean: ${near.join(', ')}?` : ''} Use search_services to find one.`,
    )
  }
  return {
    find,
    search(args: unknown): ToolResult {
      try {
        const { query, limit } = prepareInput(searchInput, args ?? {}) as { query: string; limit: number }
        return objectResult(search(query, limit))
      } catch (e) {
        return errorResult(e as ServiceError)
      }
    },
    describe(args: unknown): ToolResult {
      try {
        const { slug } = prepareInput(describeInput, args ?? {}) as { slug: string }
        const s = find(slug)
        const example = s.manifest.examples[0]
        return objectResult({
          slug: s.slug,
          tool: s.slug,
          name: s.manifest.name,
          summary: oneLine(s.manifest.description),
          description: s.manifest.description,
          category: s.manifest.category,
          kind: s.manifest.kind,
          available: s.available,
          ...(s.unavailableReason ? { unavailable_reason: s.unavailableReason.message } : {}),
          price: priceLine(s),
          pricing: s.pricing,
          default_tier: s.defaultTier,
          payment: {
            protocol: 'x402',
            x402Version: 2,
            scheme: 'exact',
            network: config.networks[0].network,
            asset: config.networks[0].asset,
          },
          input_schema: s.inputJsonSchema,
          output_schema: s.outputJsonSchema,
          ...(example
            ? {
                example: {
                  name: example.name,
                  arguments: example.input,
                  ...(example.output !== undefined ? { result: example.output } : {}),
                },
              }
            : {}),
          http: { method: 'POST', url: `${config.provider.apiBase}/api/v1/${s.slug}` },
        })
      } catch (e) {
        return errorResult(e as ServiceError)
      }
    },
  }
}
