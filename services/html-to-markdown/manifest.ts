import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'html-to-markdown',
  name: 'Html To Markdown',
  description: "No fetch.",
  category: 'media',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    html: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
