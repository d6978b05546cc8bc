import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'financial-ratios',
  name: 'Financial Ratios',
  description: "Financial Ratios.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    current_assets: t.Optional(t.Number()),
    current_liabilities: t.Optional(t.Number()),
    inventory: t.Optional(t.Number()),
    total_debt: t.Optional(t.Number()),
    total_equity: t.Optional(t.Number()),
    total_assets: t.Optional(t.Number()),
    revenue: t.Optional(t.Number()),
    cogs: t.Optional(t.Number()),
    net_income: t.Optional(t.Number()),
    ebit: t.Optional(t.Number()),
    interest_expense: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
