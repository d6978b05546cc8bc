import type { ChannelOffer, NetworkChannelTerms } from '../pay/schemes/batch-settlement/scheme'
import { mppTerms } from './mpp'
import type { CatalogService } from '../catalog/index'
import type { Config } from '../config'
import { acceptsFor } from '../pay/server/challenge'
import { TIERS, type TierName } from '../sdk'
import { metadataOf } from '../catalog/metadata'
import { solanaAccepts, solanaFields, solanaTermsOf } from './solana'

/** Both paths of every paid service (spec §9: identical behaviour). */
export const endpointsOf = (slug: string) => [`/api/v1/${slug}`, `/api/${slug}`]

/** Spec §2.6 inputSchema: per-field type/description/required/default for tiered services, JSON Schema for utilities. */
export function publishedInputSchema(s: CatalogService): Record<string, unknown> {
  if (s.manifest.kind !== 'tiered') return s.inputJsonSchema
  const props = (s.inputJsonSchema.properties ?? {}) as Record<string, Record<string, unknown>>
  const required = new Set((s.inputJsonSchema.required ?? []) as string[])
  return Object.fromEntries(
    Object.entries(props).map(([k, p]) => [
      k,
      {
        type: p.anyOf ? 'string' : p.type,
        description: p.description ?? '',
        required: required.has(k),
        ...(p.default !== undefined ? { default: p.default } : {}),
        ...(p.anyOf ? { enum: (p.anyOf as { const: string }[]).map((x) => x.const) } : {}),
      },
    ]),
  )
}

/**
 * The schemes and channel terms published at the top of /services and /.well-known (docs/channels.md): `exact`, and
 * `batch-settlement` with the terms of the first network offering channels (each network's are in `networks`).
 */
const channelFields = (channels?: NetworkChannelTerms) => {
  const first = channels && Object.values(channels)[0]
  return first ? { schemes: ['exact', 'batch-settlement'], batch_settlement: first } : { schemes: ['exact'] }
}

/** One network's entry of `channelFields`. */
/** The `mpp` field of /services and /.well-known/x402 (MPP's terms), or nothing when MPP is off. */
const mppField = (cfg: Config) => {
  const mpp = mppTerms(cfg)
  return mpp ? { mpp } : {}
}

const channelFieldsOn = (network: string, channels?: NetworkChannelTerms) =>
  channelFields(channels?.[network] ? { [network]: channels[network] } : undefined)

/** GET /services: every service with tiers, prices, endpoints, availability and schemas, and the free demo. */
export function servicesDocument(services: CatalogService[], cfg: Config, channels?: NetworkChannelTerms) {
  const demo = services.find((s) => s.slug === cfg.demo.service)
  return {
    provider: cfg.provider.name,
    network: cfg.networks[0].network,
    asset: cfg.networks[0].asset,
    // The x402 schemes every 402 offers, in its order; payment channels' terms when they are offered (docs/channels.md).
    ...channelFields(channels),
    // MPP beside x402 on the same 402 (docs/payments.md), when offered.
    ...mppField(cfg),
    // NETWORKS: every accepted network with its token, schemes and channel terms (the fields above are the first's).
    ...(cfg.networks.length > 1
      ? {
          networks: cfg.networks.map((n) => ({
            network: n.network,
            asset: n.asset,
            ...channelFieldsOn(n.network, channels),
          })),
        }
      : {}),
    // x402 `exact` on Solana, when offered: every 402 lists it after the EVM entries.
    ...solanaFields(cfg),
    count: services.length,
    // The free demo (POST /api/demo/explain): which service, and whether it can answer (its model is configured).
    demo: {
      path: '/api/demo/explain',
      service: cfg.demo.service,
      tier: cfg.demo.tier,
      daily_limit: cfg.demo.dailyLimit,
      available: demo?.available ?? false,
      ...(demo?.unavailableReason ? { unavailable_reason: demo.unavailableReason.message } : {}),
    },
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
export function wellKnownDocument(
  services: CatalogService[],
  cfg: Config,
  payTo: string,
  channels?: NetworkChannelTerms,
  proofs: string[] = cfg.provider.ownershipProofs ?? [],
) {
  return {
    provider: cfg.provider.name,
    description: cfg.provider.description,
    website: cfg.provider.website,
    api_base: cfg.provider.apiBase,
    protocol: 'x402',
    network: cfg.networks[0].network,
    asset: cfg.networks[0].asset,
    payTo,
    // x402scan's ownership check: the origin signed (EIP-191) by a payTo key (./ownership.ts).
    ...(proofs.length ? { ownershipProofs: proofs } : {}),
    // Payment channels (docs/channels.md): the schemes every 402 offers, in its order, and the channels' terms.
    ...(channels ? channelFields(channels) : {}),
    // MPP beside x402 on the same 402 (docs/payments.md), when offered.
    ...mppField(cfg),
    // NETWORKS: every accepted network with its token (the fields above are the first one's), and where channels are
    // offered on any, each network's schemes and channel terms.
    ...(cfg.networks.length > 1
      ? {
          networks: cfg.networks.map((n) => ({
            network: n.network,
            asset: n.asset,
            payTo: n.payTo || payTo,
            ...(channels ? channelFieldsOn(n.network, channels) : {}),
          })),
        }
      : {}),
    // x402 `exact` on Solana, when offered: every 402 lists it after the EVM entries.
    ...solanaFields(cfg),
    // Every service is also an MCP tool (name = slug), paid with the x402 MCP transport.
    mcp: {
      endpoint: '/mcp',
      url: `${cfg.provider.apiBase}/mcp`,
      transport: 'streamable-http',
      payment: mppTerms(cfg)
        ? 'x402 v2 MCP transport: PaymentPayload in _meta["x402/payment"]; MPP: credential in _meta["org.paymentauth/credential"]'
        : 'x402 v2 MCP transport: PaymentPayload in _meta["x402/payment"]',
    },
    resources: services.map((s) => ({
      endpoint: `/api/v1/${s.slug}`,
      method: 'POST',
      name: s.manifest.name,
      description: s.manifest.description,
      model: s.model,
      pricing: s.pricing,
      inputSchema: publishedInputSchema(s),
      outputSchema: s.manifest.kind === 'tiered' ? s.outputJsonSchema : {},
      payment: { scheme: 'exact', payTo, asset: cfg.networks[0].asset, network: cfg.networks[0].network },
    })),
  }
}

/**
 * One x402 Bazaar DiscoveryResource (x402 extensions 2.27): accepts per tier (the `exact` entry, then, where payment
 * channels are offered, the `batch-settlement` one with its terms in `extra`, as the 402 lists them), ISO
 * lastUpdated, service metadata.
 */
export function discoveryItem(
  s: CatalogService,
  cfg: Config,
  payTo: string,
  lastUpdated: string,
  channels?: ChannelOffer,
) {
  const accepts = (tier: TierName) => {
    const exact = acceptsFor(cfg, s, tier, payTo)
    return [...exact, ...(channels ? exact.flatMap((r) => channels.offer(r) ?? []) : []), ...solanaAccepts(cfg, exact)]
  }
  return {
    resource: `${cfg.provider.apiBase}/api/v1/${s.slug}`,
    type: 'http',
    x402Version: 2,
    accepts: (Object.keys(s.pricing) as TierName[]).flatMap(accepts),
    lastUpdated,
    description: `${s.manifest.name}: ${s.manifest.description}`.slice(0, 500),
    mimeType: 'application/json',
    ...metadataOf(cfg, s),
    extensions: s.bazaar,
    metadata: {
      name: s.manifest.name,
      description: s.manifest.description,
      category: s.manifest.category,
      model: s.model,
      pricing: s.pricing,
      input: { type: 'http', method: 'POST', bodyType: 'json', schema: s.inputJsonSchema },
      output: { type: 'json', schema: s.outputJsonSchema },
      ...(s.manifest.kind === 'tiered'
        ? {
            tiers: `choose with ?tier=${TIERS.join('|')} (default standard); accepts[] lists ${channels ? 'the entries of each tier (exact, then batch-settlement' : 'the entries of each tier (exact'}${solanaTermsOf(cfg) ? ', then exact on Solana)' : ')'} in that order`,
          }
        : {}),
    },
  }
}

/**
 * The Bazaar list filters (type, tags, network, scheme, payTo, extensions) over the catalog. `tags` is a
 * comma-separated list: a service matches when it carries any of them. Unknown values match nothing.
 */
export function filterServices(
  services: CatalogService[],
  cfg: Config,
  payTo: string,
  query: URLSearchParams,
  channels?: ChannelOffer,
): CatalogService[] {
  const type = query.get('type')
  const network = query.get('network')
  const scheme = query.get('scheme')
  const to = query.get('payTo')
  const ext = query.get('extensions')
  const tags = (query.get('tags') ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean)
  const solana = solanaTermsOf(cfg)
  const onSolana = !!solana && network === solana.network
  if (
    (type && type !== 'http') ||
    (network && !onSolana && !cfg.networks.some((n) => n.network === network)) ||
    (scheme && scheme !== 'exact' && !(scheme === 'batch-settlement' && !onSolana && channelsOn(channels, network))) ||
    (to &&
      to !== solana?.payTo && // base58: case-sensitive
      !cfg.networks.some((n) => (n.payTo || payTo).toLowerCase() === to.toLowerCase()))
  )
    return []
  if (ext && !ext.split(',').every((e) => e.trim() === 'bazaar')) return []
  return tags.length ? services.filter((s) => s.tags.some((t) => tags.includes(t))) : services
}

/** Whether channels are offered on `network` (or on any network). */
const channelsOn = (channels: ChannelOffer | undefined, network: string | null) =>
  !!channels && (network ? network in channels.terms : Object.keys(channels.terms).length > 0)

/** Unix seconds (or ms) to ISO 8601. */
const iso = (t: number) => new Date(t < 1e12 ? t * 1000 : t).toISOString()

/** GET /discovery/resources: the x402 Bazaar list shape, filtered, paginated with limit (1-100, default 20) and offset. */
export function discoveryDocument(
  services: CatalogService[],
  cfg: Config,
  payTo: string,
  query: URLSearchParams,
  bootedAt: number,
  channels?: ChannelOffer,
) {
  const num = (v: string | null, d: number, min: number, max: number) => {
    const n = v === null ? d : Number.parseInt(v, 10)
    return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : d
  }
  const limit = num(query.get('limit'), 20, 1, 100)
  const offset = num(query.get('offset'), 0, 0, Number.MAX_SAFE_INTEGER)
  const all = filterServices(services, cfg, payTo, query, channels)
  const lastUpdated = iso(bootedAt)
  const items = all.slice(offset, offset + limit).map((s) => discoveryItem(s, cfg, payTo, lastUpdated, channels))
  return { x402Version: 2, items, pagination: { limit, offset, total: all.length } }
}
