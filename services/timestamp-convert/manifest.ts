import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'timestamp-convert',
  name: 'Timestamp Convert',
  description: "Unix epoch (s/ms) and ISO-8601; weekday and UTC offset.",
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    value: t.Optional(t.Number()),
    to: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
