import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'sales-tax-vat-calculator',
  name: 'Sales Tax Vat Calculator',
  description: "Add tax to net or extract from gross.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    amount: t.Optional(t.Number()),
    mode: t.Optional(t.String()),
    region: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
