import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'extract-links',
  name: 'Extract Links',
  description: "Fetch page; absolute hyperlinks, optionally external only.",
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
