import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'percentage-calc',
  name: 'Percentage Calc',
  description: "Percent-of, percent-change, tip, X-is-what-percent-of-Y.",
  category: 'math',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    op: t.Optional(t.String()),
    from: t.Optional(t.Number()),
    to: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
