import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'readability-score',
  name: 'Readability Score',
  description: "Counts, reading time, Flesch Reading Ease, Flesch-Kincaid, Gunning Fog, SMOG, ARI, Coleman-Liau.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    text: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
