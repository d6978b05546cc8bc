import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'pii-redact',
  name: 'Pii Redact',
  description: "Masks emails, phones, SSNs, card numbers, IPs; per-type counts.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    text: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
