import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'json-to-csv',
  name: 'Json To Csv',
  description: "Array of objects to CSV with header.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    rows: t.Optional(t.Array(t.Unknown())),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
