import { jsonSchema, type CatalogService } from '../catalog/index'
import { t, type TierName } from '../sdk'

/** One MCP tool definition as tools/list publishes it. */
export interface ToolDef {
  name: string
  title?: string
  description: string
  inputSchema: Record<string, unknown>
  outputSchema?: Record<string, unknown>
  annotations?: Record<string, unknown>
  /** MCP 2025-11-25 `execution.taskSupport`: `optional` on the paid tools that can run as a Task (./tasks.ts). */
  execution?: { taskSupport: 'optional' }
}

/** The names of the free tools (snake_case, so they never clash with kebab-case service slugs). */
export const FREE_TOOLS = { search: 'search_services', describe: 'describe_service' } as const
/** The paid tool that calls any service by slug (snake_case too). */
export const CALL_SERVICE = 'call_service'

/**
 * Services listed as their own tool in the default (small) tools/list, in this order, when in the catalog: the
 * kinds of call agents make most (read a page, code, JSON and data formats, prices, weather, dates). Every other
 * service is one `call_service` away, or listed with `POST /mcp?tools=all`.
 */
export const FEATURED = [
  'read-url',
  'summarize-url',
  'explain-code',
  'code-review',
  'extract-structured',
  'json-format',
  'json-repair',
  'data-format-convert',
  'crypto-price',
  'fx-rate',
  'weather-current',
  'timestamp-convert',
  'unit-convert',
  'hash-digest',
] as const
export const demoToolName = (slug: string) => `demo_${slug.replace(/-/g, '_')}`

/** "$0.001 USDC per call", or "quick $0.01, standard $0.05 (default), pro $0.1 USDC per call; choose with ...". */
export function priceLine(s: CatalogService): string {
  const tiers = Object.keys(s.pricing) as TierName[]
  if (tiers.length === 1) return `$${s.pricing[tiers[0]]!.price_usd} USDC per call`
  return `${tiers.map((t) => `${t} $${s.pricing[t]!.price_usd}${t === s.defaultTier ? ' (default)' : ''}`).join(', ')} USDC per call; choose with the \`tier\` argument`
}

/** isError answers: a v2 PaymentRequired (unpaid or refused call) or the HTTP error body. Kept minimal: 113 tools carry them. */
const paymentRequiredSchema = { type: 'object', required: ['x402Version', 'accepts'] }
const errorSchema = { type: 'object', required: ['error'] }

/**
 * The outputSchema of a paid tool: the manifest's output, or (on isError) a PaymentRequired or an error body.
 * MCP clients validate structuredContent against outputSchema even on errors, so every answer must match it.
 */
function outputSchemaOf(s: CatalogService): Record<string, unknown> | undefined {
  const out = s.outputJsonSchema
  if (out.type !== 'object') return undefined
  return { type: 'object', anyOf: [out, paymentRequiredSchema, errorSchema] }
}

/** One paid tool per service: name = slug, price in the description, input schema = the manifest's. */
export function paidTool(s: CatalogService, network: string): ToolDef {
  const status = s.available ? '' : ` Currently unavailable: ${s.unavailableReason?.message}`
  const outputSchema = outputSchemaOf(s)
  return {
    name: s.slug,
    title: s.manifest.name,
    description: `${s.manifest.description}\n\nPrice: ${priceLine(s)} (x402 v2, scheme exact, USDC on ${network}). Unpaid calls return isError with the PaymentRequired; failed calls are never charged.${status}`,
    inputSchema: s.inputJsonSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: {
      title: s.manifest.name,
      openWorldHint: Boolean(s.manifest.needs?.some((n) => n === 'fetch' || n === 'upstream')),
    },
  }
}

export const searchInput = t.Object(
  {
    query: t.String({
      minLength: 1,
      maxLength: 200,
      description: 'Words describing what you need, e.g. "convert yaml to json" or "weather".',
    }),
    limit: t.Optional(t.Integer({ minimum: 1, maximum: 25, default: 8, description: 'Most results to return.' })),
  },
  { additionalProperties: false },
)

export const describeInput = t.Object(
  {
    slug: t.String({
      minLength: 1,
      maxLength: 100,
      description: 'The service slug (also its tool name), e.g. "slugify".',
    }),
  },
  { additionalProperties: false },
)

/** The demo runs at the operator's demo tier, so its tool does not offer `tier`. */
function withoutTier(schema: Record<string, unknown>): Record<string, unknown> {
  const { tier: _, ...properties } = (schema.properties ?? {}) as Record<string, unknown>
  return { ...schema, properties }
}

/** The free tools: search, describe, and the demo service (when it is in the catalog). */
export function freeTools(demo: CatalogService | undefined, demoLimit: number): ToolDef[] {
  const tools: ToolDef[] = [
    {
      name: FREE_TOOLS.search,
      title: 'Search services',
      description:
        'Free. Finds paid services (tools) by words, best match first, with slug, price and a one-line description. Use it instead of reading every tool definition.',
      inputSchema: jsonSchema(searchInput),
      annotations: { title: 'Search services', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: FREE_TOOLS.describe,
      title: 'Describe a service',
      description:
        'Free. The full definition of one service: prices per tier, input and output JSON Schema, and an example call.',
      inputSchema: jsonSchema(describeInput),
      annotations: { title: 'Describe a service', readOnlyHint: true, openWorldHint: false },
    },
  ]
  if (demo) {
    tools.push({
      name: demoToolName(demo.slug),
      title: `${demo.manifest.name} (free demo)`,
      description: `Free demo of the paid \`${demo.slug}\` tool at a reduced tier, limited to ${demoLimit} calls per client per UTC day. ${demo.manifest.description}`,
      inputSchema: withoutTier(demo.inputJsonSchema),
      annotations: { title: `${demo.manifest.name} (free demo)`, openWorldHint: false },
    })
  }
  return tools
}

export const callServiceInput = t.Object(
  {
    slug: t.String({ minLength: 1, maxLength: 100, description: 'The service to call, e.g. "slugify".' }),
    arguments: t.Optional(
      t.Record(t.String(), t.Unknown(), {
        description: "The service's arguments (its input schema: describe_service); `tier` for tiered services.",
      }),
    ),
  },
  { additionalProperties: false },
)

/** call_service: any service by slug, paid exactly like that service's own tool (same price, same requirements). */
export function callServiceTool(services: CatalogService[]): ToolDef {
  const schema = jsonSchema(callServiceInput) as { properties: Record<string, Record<string, unknown>> }
  schema.properties.slug = { ...schema.properties.slug, enum: services.map((s) => s.slug) }
  return {
    name: CALL_SERVICE,
    title: 'Call any service (paid)',
    description:
      'Paid per call with x402 v2 (scheme exact, USDC): calls the service `slug` with `arguments`, at exactly the price of that service and tier (describe_service gives it). Find a slug with search_services. Unpaid, invalid arguments are refused free of charge; valid ones return isError with the PaymentRequired: sign one of its `accepts` and repeat the same call with the PaymentPayload in _meta["x402/payment"]. Failed calls are never charged.',
    inputSchema: schema,
    annotations: { title: 'Call any service (paid)', openWorldHint: true },
  }
}
