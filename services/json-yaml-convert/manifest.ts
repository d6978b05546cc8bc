import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'json-yaml-convert',
  name: 'Json Yaml Convert',
  description: "JSON and YAML.",
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
