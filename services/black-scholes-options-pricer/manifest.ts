import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'black-scholes-options-pricer',
  name: 'Black Scholes Options Pricer',
  description: "European call/put and greeks; optional market_price triggers implied-volatility solve.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.005),
  model: 'none',
  input: t.Object({
    spot: t.Optional(t.Number()),
    strike: t.Optional(t.Number()),
    days_to_expiry: t.Optional(t.Number()),
    rate: t.Optional(t.Number()),
    volatility: t.Optional(t.Number()),
    type: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
