import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'markdown-to-html',
  name: 'Markdown To Html',
  description: "Sanitized HTML.",
  category: 'media',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    markdown: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
