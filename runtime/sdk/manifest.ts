import type { Static, TSchema } from '@sinclair/typebox'
import type { ServiceContext } from './context'

/** The tiers a tiered (model) service sells, cheapest first; the one definition of the list. */
export const TIERS = ['quick', 'standard', 'pro'] as const
/** One of `TIERS`. */
export type Tier = (typeof TIERS)[number]
/** A price row of a manifest: a model tier, or `flat` for a single-price utility. */
export type TierName = Tier | 'flat'
/** True when `v` is one of `TIERS` (exact, lower-case). */
export const isTier = (v: unknown): v is Tier => (TIERS as readonly unknown[]).includes(v)

export interface TierPrice {
  /** Decimal USD, e.g. 0.005. At most 6 decimals (USDC atomic unit). */
  price_usd: number
  /** Token budget; 0 for services without a model. */
  max_tokens: number
}

/**
 * `tiered`: body is a ServiceRequest (`code`, `language`, `context`, `tier`), answer is a ServiceResponse;
 * the handler returns `{ result, model?, tokens_used }` and the runtime adds `service`, `tier`, `request_id`.
 * `utility`: any JSON object in, the handler's object out.
 */
export type ServiceKind = 'tiered' | 'utility'

export interface Example<I> {
  name: string
  input: I
  /** A realistic answer (shown in docs and discovery). */
  output?: unknown
}

/**
 * Other spellings agents use for this service's fields and enum values. Enum values already match
 * case-insensitively with `-`, `_` and spaces alike ("Percent-Of" = "percent_of"); declare here only real synonyms.
 * Published with the input schema (`x-aliases`) in /services, OpenAPI and the Bazaar extension.
 * @example aliases: { fields: { percent: 'rate' }, values: { op: { 'x-is-what-percent-of-y': 'what_percent' } } }
 */
export interface InputAliases {
  /**
   * Alias field name -> canonical field. When the body has both, the canonical one wins (and a top-level alias is
   * reported in X-Ignored-Fields). A nested field is named by its object's path: `'debts[].rate': 'apr'` renames
   * `rate` to `apr` in each item of `debts`; `*` stands for a record's values (`'fields.*.kind': 'type'`).
   */
  fields?: Record<string, string>
  /** Field name -> (alias value -> canonical literal). Applies to that field's enum wherever the field appears (nested too). */
  values?: Record<string, Record<string, string>>
}

/** The schema keyword that carries a manifest's aliases (set by defineService). */
export const ALIASES_KEY = 'x-aliases'

/**
 * An error code a service declares for itself (its manifest's `errors`): the HTTP status it answers with and when.
 * Boot merges every service's codes with the runtime's (runtime/sdk/error-codes.ts) and refuses a collision.
 */
export interface DeclaredError {
  /** 400-599: the status every error with this code answers (`ownError` sets it). */
  status: number
  /** When the service answers it (one line, for agents and the docs). */
  description: string
}

export type DeclaredErrors = Record<string, DeclaredError>

export interface ServiceManifest<
  I extends TSchema = TSchema,
  O extends TSchema = TSchema,
  E extends DeclaredErrors = DeclaredErrors,
> {
  /** kebab-case; equals the folder name and the URL segment. */
  slug: string
  name: string
  description: string
  /** One of the categories in services/categories.ts (boot refuses another). */
  category: string
  kind: ServiceKind
  method: 'POST'
  /** `{ quick, standard, pro }` for tiered services, `{ flat }` for utilities, `{ standard }` for read-url. */
  pricing: Partial<Record<TierName, TierPrice>>
  /** Model label, or `none`. */
  model: string
  /** TypeBox schema of the JSON body. Utilities accept unknown extra fields. Document caps with maxLength/maxItems. */
  input: I
  /** TypeBox schema of the 200 body. */
  output: O
  examples: Example<Static<I>>[]
  /** What the service needs from the runtime; `model` makes it unavailable (503, before payment) without a provider. */
  needs?: Array<'model' | 'fetch' | 'upstream' | 'payments'>
  /** Upstream names from registry.yaml this service calls. */
  upstreams?: string[]
  /** Handler time budget in ms (default 10 000). */
  timeoutMs?: number
  /**
   * Cheap and linear: a synchronous handler with no `needs`, whose work grows at most linearly with its input (a
   * growth test proves it: test/support/large-inputs.ts). A call with a small input (ISOLATE_INLINE_KB) then runs on
   * the main thread, without the worker hop; a run over its CPU budget (ISOLATE_INLINE_MS) sends the service back to
   * the worker pool for the rest of the process (runtime/isolate/inline.ts).
   */
  linear?: boolean
  /** Synonyms for field names and enum values (see InputAliases). */
  aliases?: InputAliases
  /**
   * Error codes only this service answers (UPPER_SNAKE, not one of the runtime's codes), thrown with `ownError`.
   * A code shared by several services belongs in runtime/sdk/error-codes.ts.
   */
  errors?: E
}

export type Handler<M extends ServiceManifest> = (
  input: Static<M['input']>,
  ctx: ServiceContext,
) => unknown | Promise<unknown>

/** Any handler, whatever its input type (the registry's view). */
export type AnyHandler = (input: never, ctx: ServiceContext) => unknown

/**
 * Declares a service. Keeps literal types for the handler.
 * @example
 * export default defineService({ slug: 'slugify', name: 'Slugify', ..., input: t.Object({ text: t.String() }), output: t.Object({ slug: t.String() }) })
 */
export function defineService<I extends TSchema, O extends TSchema, E extends DeclaredErrors = DeclaredErrors>(
  m: ServiceManifest<I, O, E>,
): ServiceManifest<I, O, E> {
  // The input schema carries the aliases, so validation and every published copy of the schema see the same ones.
  if (m.aliases) (m.input as Record<string, unknown>)[ALIASES_KEY] = m.aliases
  return m
}

/**
 * Declares the handler of a manifest; the input is typed from the manifest's schema.
 * @example
 * export default handlerFor(manifest, ({ text }) => ({ slug: slugify(text) }))
 */
export function handlerFor<M extends ServiceManifest>(
  _manifest: M,
  fn: (input: Static<M['input']>, ctx: ServiceContext) => Static<M['output']> | Promise<Static<M['output']>>,
): Handler<M> {
  return fn
}
