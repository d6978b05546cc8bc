import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'impermanent-loss-calculator',
  name: 'Impermanent Loss Calculator',
  description: "50/50 pool.",
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    price_ratio: t.Optional(t.Number()),
    initial_value: t.Optional(t.Number()),
    fees_earned: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
