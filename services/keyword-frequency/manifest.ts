import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'keyword-frequency',
  name: 'Keyword Frequency',
  description: "Top single tokens and two-word phrases, stopwords removed.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    text: t.Optional(t.String()),
    top_n: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
