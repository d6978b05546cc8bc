import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'csv-dedupe',
  name: 'Csv Dedupe',
  description: "Cleaned CSV and removed-row report.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    csv: t.Optional(t.String()),
    keys: t.Optional(t.Array(t.Unknown())),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
