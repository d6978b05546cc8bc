import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'luhn-check',
  name: 'Luhn Check',
  description: "Luhn checksum and card brand.",
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    number: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
