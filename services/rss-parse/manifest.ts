import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'rss-parse',
  name: 'Rss Parse',
  description: "RSS/Atom feed to JSON item list.",
  category: 'web',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    url: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
