import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'eli5',
  name: 'Eli5',
  description: "Model-backed; explains a topic as to a five-year-old.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    text: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
