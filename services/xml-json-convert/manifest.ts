import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'xml-json-convert',
  name: 'Xml Json Convert',
  description: "Attributes prefixed @, text as #text, repeated tags as arrays.",
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    input: t.Optional(t.String()),
    from: t.Optional(t.String()),
    to: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
