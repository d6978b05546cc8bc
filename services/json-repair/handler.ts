import { jsonrepair } from 'jsonrepair'
import { handlerFor, ServiceError, t } from '../../runtime/sdk'
import { askJson } from '../_lib/model-utility'
import manifest from './manifest'

/** Largest input sent to the model. */
export const MODEL_MAX_CHARS = 16_000

const SYSTEM =
  'You repair malformed or truncated JSON. Reconstruct the JSON value the text was meant to be: fix quoting, escapes, ' +
  'missing or extra commas, brackets and braces; close truncated structures; keep every key and value that is present and ' +
  'invent nothing else. Put the repaired JSON value in the "value" field of your answer.'

const Answer = t.Object({ value: t.Unknown() }, { required: ['value'] })

function tryParse(s: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(s) }
  } catch {
    return { ok: false }
  }
}

export default handlerFor(manifest, async ({ json }, ctx) => {
  const direct = tryParse(json)
  if (direct.ok)
    return {
      repaired: json,
      value: direct.value,
      method: 'unchanged' as const,
      changed: false,
      model: 'none',
      tokens_used: 0,
    }
  try {
    const repaired = jsonrepair(json)
    const parsed = tryParse(repaired)
    if (parsed.ok)
      return {
        repaired,
        value: parsed.value,
        method: 'deterministic' as const,
        changed: true,
        model: 'none',
        tokens_used: 0,
      }
  } catch {
    /* fall through to the model */
  }
  if (json.length > MODEL_MAX_CHARS) {
    throw new ServiceError(
      413,
      'INPUT_TOO_LARGE',
      `the deterministic repair failed and the model path accepts at most ${MODEL_MAX_CHARS} characters (got ${json.length})`,
      { details: [{ path: '/json', message: `at most ${MODEL_MAX_CHARS} characters for model repair` }] },
    )
  }
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: json,
    schema: Answer,
    maxTokens: 8192,
    validate: (a) => (a.value === undefined ? 'value is missing' : undefined),
  })
  return {
    repaired: JSON.stringify(r.value.value),
    value: r.value.value,
    method: 'model' as const,
    changed: true,
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
