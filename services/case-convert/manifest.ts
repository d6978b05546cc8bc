import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'case-convert',
  name: 'Case Convert',
  description: "Upper, lower, title, sentence, snake_case, camelCase, kebab-case, CONSTANT.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    text: t.Optional(t.String()),
    to: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
