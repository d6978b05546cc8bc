import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'classify-text',
  name: 'Classify Text',
  description: "Model-backed; one of supplied labels with confidence.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    text: t.Optional(t.String()),
    labels: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
