/**
 * The shared builder of the ten tiered analysis services (spec §4.3). Each service supplies a fixed system prompt
 * per tier (its `prompts.ts`); the tier changes the token budget and the depth asked for, never the model.
 * User content is sent only as data in the user message (the model client wraps it).
 */
import {
  handlerFor,
  ServiceError,
  type ModelRequest,
  type ServiceContext,
  type ServiceManifest,
  type Static,
  type Tier,
  type TSchema,
  trimmedStream,
} from '../../runtime/sdk'
import { dataBlock } from './model-utility'

export type TierPrompts = Record<Tier, string>

/** Characters of input allowed per token of the tier's budget (spec: inputs too large for the tier are refused). */
export const CHARS_PER_BUDGET_TOKEN = 8

export interface AnalysisInput {
  code: string
  language?: string
  context?: string
}

/** What is sent to the model besides the system prompt. */
export interface Prepared {
  user: string
  images?: ModelRequest['images']
}

export interface AnalysisOptions<J = unknown> {
  prompts: TierPrompts
  /** Section titles of the data block. */
  labels?: { code?: string; language?: string; context?: string }
  /** Custom preparation (fetching a URL, checking the language); default: the data block of code/language/context. */
  prepare?: (input: AnalysisInput, ctx: ServiceContext, limit: number) => Promise<Prepared> | Prepared
  /** Ask for JSON matching `schema` and turn it into the `result` text. */
  structured?: { schema: TSchema; validate?: (json: J) => string | undefined; render: (json: J, tier: Tier) => string }
}

export const tierOf = (ctx: ServiceContext): Tier =>
  ctx.tier === 'quick' || ctx.tier === 'pro' ? ctx.tier : 'standard'

/** The input cap of a tier in characters. */
export const inputLimit = (ctx: ServiceContext): number => Math.max(ctx.maxTokens, 1000) * CHARS_PER_BUDGET_TOKEN

/** 413 naming the limit when `chars` exceeds the tier's cap. */
export function checkBudget(
  ctx: ServiceContext,
  chars: number,
  what = 'code and context together',
  path = '/code',
): void {
  const limit = inputLimit(ctx)
  if (chars > limit) {
    const message = `${what} may hold at most ${limit} characters on the ${tierOf(ctx)} tier (got ${chars}); use a higher tier or split the input`
    throw new ServiceError(413, 'INPUT_TOO_LARGE', message, {
      details: [{ path, message: `at most ${limit} characters` }],
      extra: { limit_chars: limit },
    })
  }
}

/** The default data block: language hint, context, then the content. */
export function defaultPrepare(
  input: AnalysisInput,
  ctx: ServiceContext,
  labels: AnalysisOptions['labels'] = {},
): Prepared {
  checkBudget(ctx, input.code.length + (input.context?.length ?? 0))
  return {
    user: dataBlock([
      [labels.language ?? 'Language hint', input.language],
      [labels.context ?? 'Context', input.context],
      [labels.code ?? 'Code', input.code],
    ]),
  }
}

/**
 * The handler of a tiered analysis service.
 * @example export default tieredAnalysis(manifest, { prompts })
 */
export function tieredAnalysis<M extends ServiceManifest, J = unknown>(manifest: M, opts: AnalysisOptions<J>) {
  return handlerFor(manifest, async (raw: Static<M['input']>, ctx: ServiceContext) => {
    const input = raw as unknown as AnalysisInput
    const tier = tierOf(ctx)
    const prepared = opts.prepare
      ? await opts.prepare(input, ctx, inputLimit(ctx))
      : defaultPrepare(input, ctx, opts.labels)
    const req: ModelRequest = {
      system: opts.prompts[tier],
      user: prepared.user,
      images: prepared.images,
      maxTokens: ctx.maxTokens,
      signal: ctx.signal,
    }
    if (opts.structured) {
      const s = opts.structured
      const r = await ctx.model.complete({
        ...req,
        jsonSchema: s.schema as Record<string, unknown>,
        validate: s.validate ? (v) => s.validate!(v as J) : undefined,
        // Streamed: the model's own JSON as it is produced; `result` is its rendering (docs/streaming.md).
        stream: ctx.stream,
      })
      return { result: s.render(r.json as J, tier), model: r.model, tokens_used: r.tokensUsed } as Static<M['output']>
    }
    // Streamed: the chunks add up to exactly `result`.
    const r = await ctx.model.complete({ ...req, stream: trimmedStream(ctx.stream) })
    return { result: r.text.trim(), model: r.model, tokens_used: r.tokensUsed } as Static<M['output']>
  })
}

/** Depth instructions shared by the tiers; services add their own per-tier detail. */
export const DEPTH: TierPrompts = {
  quick: 'Tier: quick. Be brief: cover only the most important points in a compact answer.',
  standard: 'Tier: standard. Be thorough but focused: cover every significant point with clear explanations.',
  pro: 'Tier: pro. Be exhaustive and expert-level: cover every point in depth, including edge cases, trade-offs and complete code where relevant.',
}

/**
 * The fixed system prompt of each tier: role, then the answer format, then the tier's depth.
 * @example export const prompts = composePrompts('You are a senior engineer...', 'Use Markdown...', { quick: '...', standard: '...', pro: '...' })
 */
export function composePrompts(role: string, format: string, depth: TierPrompts): TierPrompts {
  const one = (tier: Tier) => [role.trim(), format.trim(), `${DEPTH[tier]} ${depth[tier].trim()}`].join('\n\n')
  return { quick: one('quick'), standard: one('standard'), pro: one('pro') }
}
