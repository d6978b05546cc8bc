import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'json-format',
  name: 'Json Format',
  description: "Pretty-print, minify or sort keys; reports validity and size delta.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    json: t.Optional(t.String()),
    indent: t.Optional(t.Number()),
    sort_keys: t.Optional(t.Boolean()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
