import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'bond-price-yield',
  name: 'Bond Price Yield',
  description: "Price or yield, durations, convexity.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  input: t.Object({
    face: t.Optional(t.Number()),
    coupon_rate: t.Optional(t.Number()),
    years_to_maturity: t.Optional(t.Number()),
    frequency: t.Optional(t.Number()),
    ytm: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
