import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'text-stats',
  name: 'Text Stats',
  description: "Character, word, sentence, paragraph counts, average word length, reading time.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    text: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
