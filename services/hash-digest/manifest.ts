import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'hash-digest',
  name: 'Hash Digest',
  description: "Md5, sha1, sha256, sha512, or HMAC with a key; hex and base64 output.",
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    text: t.Optional(t.String()),
    algo: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
