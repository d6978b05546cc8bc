import { handlerFor, t } from '../../runtime/sdk'
import { askJson } from '../_lib/model-utility'
import manifest from './manifest'

const SYSTEM =
  'You explain things to a curious five-year-old. Use short sentences and everyday words, no jargon, and stay accurate. ' +
  '"explanation": at most 120 words. "analogy": one concrete comparison from a child\'s everyday life. If the data block is a ' +
  'passage rather than a topic, explain what the passage says.'

const Answer = t.Object({ explanation: t.String({ minLength: 1 }), analogy: t.String() })

export default handlerFor(manifest, async ({ text }, ctx) => {
  const r = await askJson(ctx, { system: SYSTEM, user: text, schema: Answer, maxTokens: 600 })
  return {
    explanation: r.value.explanation.trim(),
    analogy: r.value.analogy.trim(),
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
