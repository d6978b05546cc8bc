import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'apr-apy-converter',
  name: 'Apr Apy Converter',
  description: "Apr Apy Converter.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    rate: t.Optional(t.Number()),
    direction: t.Optional(t.String()),
    compounds_per_year: t.Optional(t.Number()),
    principal: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
