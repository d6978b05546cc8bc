import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'summarize-url',
  name: 'Summarize Url',
  description: "Model-backed; fetches a page safely and summarizes it.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.01),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    url: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
