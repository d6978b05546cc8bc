import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'phone-parse',
  name: 'Phone Parse',
  description: "E.164, country calling code, region; number must start with + and country code.",
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    phone: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
