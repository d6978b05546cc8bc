import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'jsonpath-extract',
  name: 'Jsonpath Extract',
  description: "Dot/bracket paths.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    data: t.Optional(t.Record(t.String(), t.Unknown())),
    paths: t.Optional(t.Array(t.Unknown())),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
