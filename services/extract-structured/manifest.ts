import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'extract-structured',
  name: 'Extract Structured',
  description: "Model-backed; fields from unstructured text.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.01),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    text: t.Optional(t.String()),
    fields: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
