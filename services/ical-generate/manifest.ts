import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'ical-generate',
  name: 'Ical Generate',
  description: "RFC 5545 iCalendar file from an events array.",
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    events: t.Optional(t.Array(t.Unknown())),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
