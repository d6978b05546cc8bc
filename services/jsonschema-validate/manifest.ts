import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'jsonschema-validate',
  name: 'Jsonschema Validate',
  description: "Valid flag, per-field errors with codes and JSONPath.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    schema: t.Optional(t.Record(t.String(), t.Unknown())),
    instance: t.Optional(t.Record(t.String(), t.Unknown())),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
