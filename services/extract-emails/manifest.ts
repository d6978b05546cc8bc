import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'extract-emails',
  name: 'Extract Emails',
  description: "Fetch page; email addresses and phone numbers.",
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
