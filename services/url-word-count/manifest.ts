import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'url-word-count',
  name: 'Url Word Count',
  description: "Word count, character count, reading time.",
  category: 'web',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    url: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
