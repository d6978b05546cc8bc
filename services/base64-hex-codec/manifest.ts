import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'base64-hex-codec',
  name: 'Base64 Hex Codec',
  description: "Base64, base64url, hex, URL/percent encode or decode.",
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    input: t.Optional(t.String()),
    op: t.Optional(t.String()),
    alphabet: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
