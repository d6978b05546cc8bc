import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'text-diff',
  name: 'Text Diff',
  description: "Unified diff, added/removed line counts, similarity ratio.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    a: t.Optional(t.String()),
    b: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
