/**
 * Helpers of the model-backed utilities (spec §4.4): a labelled data block for the user message, a structured
 * call (JSON validated against a schema, one retry, else 502), and the `model` / `tokens_used` output fields.
 */
import { t, type ServiceContext, type Static, type TSchema } from '../../runtime/sdk'

/**
 * Labelled sections of user data; empty values are left out. The model client wraps the whole block as data.
 * @example dataBlock([['Target language', 'fr'], ['Text', 'Hello']])  // "### Target language\nfr\n\n### Text\nHello"
 */
export function dataBlock(entries: Array<[string, string | undefined | null]>): string {
  return entries
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `### ${k}\n${v}`)
    .join('\n\n')
}

/** The two fields every model utility reports. */
export const modelFields = {
  model: t.String({ description: 'Model that produced the answer, as reported by the provider.' }),
  tokens_used: t.Integer({
    minimum: 0,
    description:
      'Total tokens consumed (prompt and answer), as reported by the provider, or counted by the server when it reports none.',
  }),
}

export interface AskOptions<S extends TSchema> {
  system: string
  user: string
  schema: S
  maxTokens: number
  /** Extra check of a schema-valid answer; a reason rejects it (retried once, then 502). */
  validate?: (v: Static<S>) => string | undefined
}

/**
 * One structured model call.
 * @example const { value, model, tokens_used } = await askJson(ctx, { system, user, schema: Answer, maxTokens: 1024 })
 */
export async function askJson<S extends TSchema>(
  ctx: ServiceContext,
  o: AskOptions<S>,
): Promise<{ value: Static<S>; model: string; tokens_used: number }> {
  const r = await ctx.model.complete({
    system: o.system,
    user: o.user,
    maxTokens: o.maxTokens,
    jsonSchema: o.schema as unknown as Record<string, unknown>,
    validate: o.validate ? (v) => o.validate!(v as Static<S>) : undefined,
    signal: ctx.signal,
    // Streamed: the model's JSON answer as it is produced (docs/streaming.md).
    stream: ctx.stream,
  })
  return { value: r.json as Static<S>, model: r.model, tokens_used: r.tokensUsed }
}

/** Splits a comma/newline separated list or passes an array through; trimmed, non-empty, de-duplicated. */
export function listOf(v: string | string[]): string[] {
  const items = (Array.isArray(v) ? v : v.split(/[,\n]/)).map((s) => s.trim()).filter(Boolean)
  return [...new Set(items)]
}
