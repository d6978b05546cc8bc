import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'iso-week-date',
  name: 'Iso Week Date',
  description: "ISO week-date, ordinal day, quarter, days remaining.",
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    date: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
