import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'roman-numeral',
  name: 'Roman Numeral',
  description: "Integers 1-3999 to Roman numerals and back, strict validation.",
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    value: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
