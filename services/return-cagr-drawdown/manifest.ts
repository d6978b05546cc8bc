import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'return-cagr-drawdown',
  name: 'Return Cagr Drawdown',
  description: "CAGR, volatility, Sharpe, max drawdown.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    series: t.Optional(t.Array(t.Unknown())),
    periods_per_year: t.Optional(t.Number()),
    risk_free: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
