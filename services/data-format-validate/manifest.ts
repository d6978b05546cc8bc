import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'data-format-validate',
  name: 'Data Format Validate',
  description: "JSON, YAML, CSV or XML; valid flag, line/column of first error, normalized copy.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    input: t.Optional(t.String()),
    format: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
