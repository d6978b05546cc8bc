import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'entity-extract',
  name: 'Entity Extract',
  description: "Emails, URLs, IPv4, phones, hashtags, mentions, money, dates.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    text: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
