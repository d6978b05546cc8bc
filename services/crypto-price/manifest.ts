import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'crypto-price',
  name: 'Crypto Price',
  description: "Price, 24h change, market cap by coin id.",
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    ids: t.Optional(t.String()),
    vs: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
