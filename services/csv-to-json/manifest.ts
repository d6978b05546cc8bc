import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'csv-to-json',
  name: 'Csv To Json',
  description: "CSV/TSV (RFC 4180) to array of objects or arrays.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    csv: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
