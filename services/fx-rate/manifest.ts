import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'fx-rate',
  name: 'Fx Rate',
  description: "Latest ECB reference rate conversion.",
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    from: t.Optional(t.String()),
    to: t.Optional(t.String()),
    amount: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
