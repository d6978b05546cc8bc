import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'url-metadata',
  name: 'Url Metadata',
  description: "Fetch page; title, description, OpenGraph/Twitter cards, canonical, favicon.",
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
