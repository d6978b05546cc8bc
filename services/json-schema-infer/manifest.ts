import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'json-schema-infer',
  name: 'Json Schema Infer',
  description: "JSON Schema draft 2020-12.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  input: t.Object({
    samples: t.Optional(t.Array(t.Unknown())),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
