import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'mock-data-generate',
  name: 'Mock Data Generate',
  description: "Deterministic for a given seed; output JSON, CSV or NDJSON.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    fields: t.Optional(t.Record(t.String(), t.Unknown())),
    count: t.Optional(t.Number()),
    seed: t.Optional(t.Number()),
    format: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
