import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'json-diff',
  name: 'Json Diff',
  description: "Added/removed/changed paths as patch, equal flag.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  input: t.Object({
    a: t.Optional(t.Record(t.String(), t.Unknown())),
    b: t.Optional(t.Record(t.String(), t.Unknown())),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
