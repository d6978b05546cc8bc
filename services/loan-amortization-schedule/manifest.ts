import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'loan-amortization-schedule',
  name: 'Loan Amortization Schedule',
  description: "Schedule, total interest, payoff date.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    principal: t.Optional(t.Number()),
    apr: t.Optional(t.Number()),
    term_years: t.Optional(t.Number()),
    extra_payment: t.Optional(t.Number()),
    start_date: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
