import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'compound-interest-projection',
  name: 'Compound Interest Projection',
  description: "Balance curve, total contributed, total interest.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    principal: t.Optional(t.Number()),
    annual_rate: t.Optional(t.Number()),
    years: t.Optional(t.Number()),
    compounds_per_year: t.Optional(t.Number()),
    contribution: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
