import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'hn-search',
  name: 'Hn Search',
  description: "Stories and comments, by relevance or date.",
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    query: t.Optional(t.String()),
    tags: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
