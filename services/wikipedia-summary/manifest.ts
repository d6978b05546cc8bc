import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'wikipedia-summary',
  name: 'Wikipedia Summary',
  description: "Lead summary, thumbnail, URL.",
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    title: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
