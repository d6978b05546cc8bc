import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'jwt-decode',
  name: 'Jwt Decode',
  description: "Header and payload, no signature verification, flags expiry.",
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    token: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
