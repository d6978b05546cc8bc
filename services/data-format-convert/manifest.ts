import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'data-format-convert',
  name: 'Data Format Convert',
  description: "CSV, TSV, JSON array of objects, NDJSON/JSONL.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    input: t.Optional(t.String()),
    from: t.Optional(t.String()),
    to: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
