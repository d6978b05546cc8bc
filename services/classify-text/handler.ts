import { handlerFor, invalid, t } from '../../runtime/sdk'
import { askJson, dataBlock, listOf } from '../_lib/model-utility'
import manifest from './manifest'

const SYSTEM =
  'You classify a text into exactly one of the candidate labels. "label" must be copied exactly from the candidate list. ' +
  '"confidence" (0-1) is your probability that the label is right. "scores" gives a confidence for every candidate label. ' +
  '"reason" is one sentence.'

export default handlerFor(manifest, async ({ text, labels }, ctx) => {
  const list = listOf(labels)
  if (list.length < 2) throw invalid('labels', 'give at least 2 distinct labels')
  if (list.length > 50) throw invalid('labels', 'at most 50 labels')
  if (list.some((l) => l.length > 100)) throw invalid('labels', 'each label may hold at most 100 characters')
  const Label = t.Union(list.map((l) => t.Literal(l)))
  const Answer = t.Object({
    label: Label,
    confidence: t.Number({ minimum: 0, maximum: 1 }),
    scores: t.Array(t.Object({ label: Label, confidence: t.Number({ minimum: 0, maximum: 1 }) }), {
      maxItems: list.length,
    }),
    reason: t.String(),
  })
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: dataBlock([
      ['Candidate labels (one per line)', list.join('\n')],
      ['Text', text],
    ]),
    schema: Answer,
    maxTokens: 1024,
  })
  const given = new Map(r.value.scores.map((s) => [s.label as string, s.confidence]))
  given.set(r.value.label, r.value.confidence)
  const scores = list
    .map((label) => ({ label, confidence: given.get(label) ?? 0 }))
    .sort((a, b) => b.confidence - a.confidence)
  return {
    label: r.value.label,
    confidence: r.value.confidence,
    scores,
    reason: r.value.reason.trim(),
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
