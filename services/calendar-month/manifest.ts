import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'calendar-month',
  name: 'Calendar Month',
  description: "Week rows (Monday or Sunday start), weekday of the 1st, day count, leap-year flag.",
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    year: t.Optional(t.Number()),
    month: t.Optional(t.Number()),
    first_weekday: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
