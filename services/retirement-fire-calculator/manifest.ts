import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'retirement-fire-calculator',
  name: 'Retirement Fire Calculator',
  description: "Withdrawal rate default 4%.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  input: t.Object({
    current_savings: t.Optional(t.Number()),
    annual_contribution: t.Optional(t.Number()),
    expected_return: t.Optional(t.Number()),
    inflation: t.Optional(t.Number()),
    annual_spend: t.Optional(t.Number()),
    withdrawal_rate: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
