import type { TSchema } from '@sinclair/typebox'
import type { Config } from '../config'
import type { RegistryEntry } from './registry-types'
import { type AnyHandler, type ErrorCode, type ServiceManifest, type TierName, type TierPrice, TIERS } from '../sdk'
import { Value } from '@sinclair/typebox/value'
import { usdToAtomic } from './amount'
import { aliasProblems, publishAliases } from '../input/publish'
import { errorVocabulary } from './error-vocabulary'
import { fullBazaar } from './bazaar'

/** A service as the runtime serves it: manifest plus operator overrides, with everything derived once at boot. */
export interface CatalogService {
  slug: string
  manifest: ServiceManifest
  handler: AnyHandler | null
  model: string
  pricing: Partial<Record<TierName, TierPrice>>
  /** Atomic USDC amount per tier. */
  amounts: Partial<Record<TierName, string>>
  defaultTier: TierName
  /** false when unbuilt (501) or when it needs a model and none is configured (503). */
  available: boolean
  unavailableReason?: { status: 501 | 503; code: ErrorCode; message: string }
  /** JSON Schema of the body, as published (utilities: additionalProperties true). */
  inputJsonSchema: Record<string, unknown>
  outputJsonSchema: Record<string, unknown>
  /** The full Bazaar extension, under its `bazaar` key (runtime/catalog/bazaar.ts; the 402 header carries a smaller form). */
  bazaar: Record<string, unknown>
  /** Its category's topical tags (services/categories.ts), the category first; at most 5. */
  tags: string[]
  /** Its category's position in services/categories.ts (/llms.txt lists categories in that order). */
  categoryRank: number
}

/** The categories the services declare (services/categories.ts): name → topical tags, in listing order. */
export type Categories = Record<string, readonly string[]>

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** JSON Schema view of a TypeBox schema (TypeBox schemas are JSON Schema plus symbol keys). */
export function jsonSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema))
}

function effectivePricing(
  m: ServiceManifest,
  o: Config['services'][string] | undefined,
): Partial<Record<TierName, TierPrice>> {
  const out: Partial<Record<TierName, TierPrice>> = {}
  for (const [tier, p] of Object.entries(m.pricing) as [TierName, TierPrice][]) {
    const override = tier === 'flat' || m.kind === 'utility' ? o?.price_usd : o?.prices?.[tier as 'quick']
    out[tier] = { price_usd: override ?? p.price_usd, max_tokens: p.max_tokens }
  }
  return out
}

function check(e: RegistryEntry, categories: Categories, problems: string[]): void {
  const m = e.manifest
  const at = `services/${e.folder}`
  if (!m || typeof m !== 'object')
    return void problems.push(`${at}: manifest.ts must export default defineService({...})`)
  if (m.slug !== e.folder) problems.push(`${at}: slug '${m.slug}' must equal the folder name`)
  if (!SLUG.test(m.slug ?? '')) problems.push(`${at}: slug must be kebab-case`)
  for (const f of ['name', 'description', 'model'] as const)
    if (!m[f] || typeof m[f] !== 'string') problems.push(`${at}: ${f} is required`)
  if (!Object.hasOwn(categories, m.category))
    problems.push(`${at}: category '${m.category}' is not one of ${Object.keys(categories).join(', ')}`)
  if (m.kind !== 'tiered' && m.kind !== 'utility') problems.push(`${at}: kind must be 'tiered' or 'utility'`)
  const tiers = Object.keys(m.pricing ?? {})
  if (m.kind === 'tiered' && TIERS.some((t) => !tiers.includes(t)))
    problems.push(`${at}: a tiered service prices quick, standard and pro`)
  if (m.kind === 'utility' && tiers.length !== 1)
    problems.push(`${at}: a utility has exactly one tier (flat, or standard for read-url)`)
  for (const [tier, p] of Object.entries(m.pricing ?? {})) {
    try {
      usdToAtomic(p.price_usd)
    } catch (err) {
      problems.push(`${at}: ${tier} ${(err as Error).message}`)
    }
    if (!Number.isInteger(p.max_tokens) || p.max_tokens < 0)
      problems.push(`${at}: ${tier} max_tokens must be an integer >= 0`)
  }
  if (m.linear && (m.needs?.length || m.upstreams?.length))
    problems.push(`${at}: a linear service (runs on the main thread for small inputs) has no needs and no upstreams`)
  if (m.input?.type !== 'object') problems.push(`${at}: input must be a t.Object schema`)
  else for (const p of aliasProblems(m.input)) problems.push(`${at}: ${p}`)
  for (const ex of m.examples ?? []) {
    // Interpreted check: compiling every schema at boot would cost more than the check itself. `Check` first: the
    // error iterator walks a valid example several times slower, and only a bad one needs its message.
    const bad = Value.Check(m.input, ex.input) ? undefined : Value.Errors(m.input, ex.input).First()
    if (bad)
      problems.push(`${at}: example '${ex.name}' does not match the input schema (${bad.path || '/'}: ${bad.message})`)
  }
}

/** Builds the catalog, collecting every manifest and override problem instead of stopping at the first. */
export function buildCatalog(
  entries: RegistryEntry[],
  config: Config,
  modelAvailable: boolean,
  categories: Categories,
): { services: CatalogService[]; problems: string[] } {
  // Each service's own error codes, merged with the runtime's: a collision refuses the boot.
  const problems: string[] = [...errorVocabulary(entries).problems]
  const known = new Set(entries.map((e) => e.folder))
  for (const slug of Object.keys(config.services))
    if (!known.has(slug)) problems.push(`registry.yaml services.${slug}: no such service`)
  const services: CatalogService[] = []
  for (const e of entries) {
    const before = problems.length
    check(e, categories, problems)
    if (problems.length > before) continue
    const m = e.manifest
    const o = config.services[m.slug]
    if (o?.enabled === false) continue
    const pricing = effectivePricing(m, o)
    const amounts: Partial<Record<TierName, string>> = {}
    for (const [tier, p] of Object.entries(pricing) as [TierName, TierPrice][]) {
      try {
        amounts[tier] = usdToAtomic(p.price_usd)
      } catch (err) {
        problems.push(`registry.yaml services.${m.slug}: ${(err as Error).message}`)
      }
    }
    const needsModel = m.needs?.includes('model') ?? false
    const unavailableReason = !e.handler
      ? {
          status: 501 as const,
          code: 'NOT_IMPLEMENTED' as const,
          message: `${m.slug} is registered but not built yet.`,
        }
      : needsModel && !modelAvailable
        ? {
            status: 503 as const,
            code: 'MODEL_NOT_CONFIGURED' as const,
            message: `${m.slug} needs a model provider and none is configured (OPENAI_BASE_URL / OPENAI_API_KEY).`,
          }
        : undefined
    const inputJsonSchema = jsonSchema(m.input)
    if (m.kind === 'utility') inputJsonSchema.additionalProperties = true
    publishAliases(inputJsonSchema)
    const outputJsonSchema = jsonSchema(m.output)
    const example = m.examples?.[0]
    services.push({
      slug: m.slug,
      manifest: m,
      handler: e.handler,
      model: o?.model ?? m.model,
      pricing,
      amounts,
      defaultTier: m.kind === 'tiered' ? 'standard' : (Object.keys(pricing)[0] as TierName),
      available: !unavailableReason,
      unavailableReason,
      inputJsonSchema,
      outputJsonSchema,
      bazaar: fullBazaar(inputJsonSchema, example),
      tags: categories[m.category].slice(0, 5),
      categoryRank: Object.keys(categories).indexOf(m.category),
    })
  }
  return { services, problems }
}
