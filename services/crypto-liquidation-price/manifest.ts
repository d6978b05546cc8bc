import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'crypto-liquidation-price',
  name: 'Crypto Liquidation Price',
  description: "Long or short.",
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    entry_price: t.Optional(t.Number()),
    leverage: t.Optional(t.Number()),
    side: t.Optional(t.String()),
    maintenance_margin_rate: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
