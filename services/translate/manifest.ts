import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'translate',
  name: 'Translate',
  description: "Model-backed.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.008),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    text: t.Optional(t.String()),
    to: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
