import { handlerFor, t } from '../../runtime/sdk'
import { askJson } from '../_lib/model-utility'
import manifest from './manifest'

const SYSTEM =
  'You analyse the sentiment of a text as expressed by its author. label: positive, negative or neutral. score: -1.0 (most ' +
  'negative) to 1.0 (most positive); positive needs score > 0, negative needs score < 0, neutral a score near 0. magnitude: 0.0 to ' +
  '1.0, the overall strength of emotion regardless of direction (high for strongly mixed text). reason: one sentence citing the text.'

const Answer = t.Object({
  label: t.Union([t.Literal('positive'), t.Literal('negative'), t.Literal('neutral')]),
  score: t.Number({ minimum: -1, maximum: 1 }),
  magnitude: t.Number({ minimum: 0, maximum: 1 }),
  reason: t.String(),
})

export default handlerFor(manifest, async ({ text }, ctx) => {
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: text,
    schema: Answer,
    maxTokens: 512,
    validate: (a) =>
      (a.label === 'positive' && a.score <= 0) || (a.label === 'negative' && a.score >= 0)
        ? `label ${a.label} contradicts score ${a.score}`
        : undefined,
  })
  const { label, score, magnitude, reason } = r.value
  return {
    label,
    score: Math.round(score * 1000) / 1000,
    magnitude: Math.round(magnitude * 1000) / 1000,
    reason: reason.trim(),
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
