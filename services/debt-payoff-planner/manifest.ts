import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'debt-payoff-planner',
  name: 'Debt Payoff Planner',
  description: "Snowball or avalanche.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    debts: t.Optional(t.Array(t.Unknown())),
    extra_payment: t.Optional(t.Number()),
    strategy: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
