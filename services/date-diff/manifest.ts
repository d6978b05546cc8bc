import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'date-diff',
  name: 'Date Diff',
  description: "Days, hours, minutes, business days.",
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    start: t.Optional(t.String()),
    end: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
