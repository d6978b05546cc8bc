import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'csv-profile',
  name: 'Csv Profile',
  description: "Per-column type, count, nulls, distinct, min/max/mean, samples.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.005),
  model: 'none',
  input: t.Object({
    csv: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
