import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'explain-regex',
  name: 'Explain Regex',
  description: "Model-backed; plain-English explanation of a regular expression.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    pattern: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
