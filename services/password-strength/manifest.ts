import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'password-strength',
  name: 'Password Strength',
  description: "Score by length, character classes, entropy in bits.",
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    password: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
