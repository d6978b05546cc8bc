import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'npv-irr-calculator',
  name: 'Npv Irr Calculator',
  description: "Index 0 is t0; NPV, IRR, payback, profitability index.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  input: t.Object({
    cashflows: t.Optional(t.Array(t.Unknown())),
    discount_rate: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
