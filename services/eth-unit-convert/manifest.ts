import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'eth-unit-convert',
  name: 'Eth Unit Convert',
  description: "Wei, kwei, mwei, gwei, szabo, finney, ether; exact math.",
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    value: t.Optional(t.String()),
    from: t.Optional(t.String()),
    to: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
