import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'number-to-words',
  name: 'Number To Words',
  description: "English cardinal, ordinal or currency form.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    number: t.Optional(t.Number()),
    form: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
