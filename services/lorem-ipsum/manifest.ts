import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'lorem-ipsum',
  name: 'Lorem Ipsum',
  description: "By paragraphs, sentences or words.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    paragraphs: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
