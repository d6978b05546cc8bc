import { handlerFor, t } from '../../runtime/sdk'
import { askJson } from '../_lib/model-utility'
import manifest from './manifest'

const SYSTEM =
  'You are a careful copy editor. Correct spelling, grammar and punctuation errors in the text, keeping its meaning, tone, ' +
  'language, formatting and line breaks. Do not rephrase correct sentences. Return the full corrected text in "corrected" and ' +
  'one entry per change in "changes" (the original fragment, the corrected fragment, a short reason). If nothing needs fixing, ' +
  'return the text unchanged and an empty list.'

const Answer = t.Object({
  corrected: t.String(),
  changes: t.Array(t.Object({ original: t.String(), corrected: t.String(), reason: t.String() }), { maxItems: 500 }),
})

export default handlerFor(manifest, async ({ text }, ctx) => {
  const r = await askJson(ctx, { system: SYSTEM, user: text, schema: Answer, maxTokens: 8192 })
  const changes = r.value.changes.filter((c) => c.original !== c.corrected)
  return {
    corrected: r.value.corrected,
    changes,
    change_count: changes.length,
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
