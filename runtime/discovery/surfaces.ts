import type { CatalogService } from '../catalog'
import type { Config } from '../config'
import { requirementsFor } from '../pay/challenge'
import type { TierName } from '../sdk'

/** Both paths of every paid service (spec §9: identical behaviour). */
export const endpointsOf = (slug: string) => [`/api/v1/${slug}`, `/api/${slug}`]

/** Spec §2.6 inputSchema: per-field type/description/required/default for tiered services, JSON Schema for utilities. */
export function publishedInputSchema(s: CatalogService): Record<string, unknown> {
  if (s.manifest.kind !== 'tiered') return s.inputJsonSchema
  const props = (s.inputJsonSchema.properties ?? {}) as Record<string, Record<string, unknown>>
  const required = new Set((s.inputJsonSchema.required ?? []) as string[])
  return Object.fromEntries(
    Object.entries(props).map(([k, p]) => [k, { type: p.anyOf ? 'string' : p.type, description: p.description ?? '', required: required.has(k), ...(p.default !== undefined ? { default: p.default } : {}), ...(p.anyOf ? { enum: (p.anyOf as { const: string }[]).map((x) => x.const) } : {}) }]),
  )
}

/** GET /services: every service with tiers, prices, endpoints, availability and schemas. */
export function servicesDocument(services: CatalogService[], cfg: Config) {
  return {
    provider: cfg.provider.name,
    network: cfg.network,
    asset: cfg.asset,
    count: services.length,
    services: services.map((s) => ({
      slug: s.slug,
      name: s.manifest.name,
      description: s.manifest.description,
      category: s.manifest.category,
      kind: s.manifest.kind,
      model: s.model,
      available: s.available,
      ...(s.unavailableReason ? { unavailable_reason: s.unavailableReason.message } : {}),
      default_tier: s.defaultTier,
      pricing: s.pricing,
      endpoints: endpointsOf(s.slug).map((path) => ({ method: 'POST', path })),
      input_schema: publishedInputSchema(s),
      output_schema: s.outputJsonSchema,
      examples: s.manifest.examples,
    })),
  }
}

/** GET /.well-known/x402 and /.well-known/x402.json: exactly the spec §2.6 manifest. */
export function wellKnownDocument(services: CatalogService[], cfg: Config, payTo: string) {
  return {
    provider: cfg.provider.name,
    description: cfg.provider.description,
    website: cfg.provider.website,
    api_base: cfg.provider.apiBase,
    protocol: 'x402',
    network: cfg.network,
    asset: cfg.asset,
    payTo,
    // Every service is also an MCP tool (name = slug), paid with the x402 MCP transport.
    mcp: { endpoint: '/mcp', url: `${cfg.provider.apiBase}/mcp`, transport: 'streamable-http', payment: 'x402 v2 MCP transport: PaymentPayload in _meta["x402/payment"]' },
    resources: services.map((s) => ({
      endpoint: `/api/v1/${s.slug}`,
      method: 'POST',
      name: s.manifest.name,
      description: s.manifest.description,
      model: s.model,
      pricing: s.pricing,
      inputSchema: publishedInputSchema(s),
      outputSchema: s.manifest.kind === 'tiered' ? s.outputJsonSchema : {},
      payment: { scheme: 'exact', payTo, asset: cfg.asset, network: cfg.network },
    })),
  }
}

/** GET /discovery/resources: the x402 Bazaar list shape, paginated with limit (1-100, default 20) and offset. */
export function discoveryDocument(services: CatalogService[], cfg: Config, payTo: string, query: URLSearchParams, bootedAt: number) {
  const num = (v: string | null, d: number, min: number, max: number) => {
    const n = v === null ? d : Number.parseInt(v, 10)
    return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : d
  }
  const limit = num(query.get('limit'), 20, 1, 100)
  const offset = num(query.get('offset'), 0, 0, Number.MAX_SAFE_INTEGER)
  const type = query.get('type')
  const all = type && type !== 'http' ? [] : services
  const items = all.slice(offset, offset + limit).map((s) => ({
    resource: `${cfg.provider.apiBase}/api/v1/${s.slug}`,
    type: 'http',
    x402Version: 2,
    accepts: (Object.keys(s.pricing) as TierName[]).map((tier) => requirementsFor(cfg, s, tier, payTo)),
    lastUpdated: bootedAt,
    metadata: {
      name: s.manifest.name,
      description: s.manifest.description,
      category: s.manifest.category,
      model: s.model,
      pricing: s.pricing,
      input: { type: 'http', method: 'POST', bodyType: 'json', schema: s.inputJsonSchema },
      output: { type: 'json', schema: s.outputJsonSchema },
      ...(s.manifest.kind === 'tiered' ? { tiers: 'choose with ?tier=quick|standard|pro (default standard); accepts[] lists one entry per tier in that order' } : {}),
    },
  }))
  return { x402Version: 2, items, pagination: { limit, offset, total: all.length } }
}
