import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'tokenomics-fdv-calculator',
  name: 'Tokenomics Fdv Calculator',
  description: "Tokenomics Fdv Calculator.",
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    price: t.Optional(t.Number()),
    circulating_supply: t.Optional(t.Number()),
    max_supply: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
