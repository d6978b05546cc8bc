import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'eth-unit-converter',
  name: 'Eth Unit Converter',
  description: "Wei/gwei/ether or arbitrary decimals, big-integer precision.",
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    amount: t.Optional(t.String()),
    from_unit: t.Optional(t.String()),
    to_unit: t.Optional(t.String()),
    usd_price: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
