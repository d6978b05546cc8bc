import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'regex-test',
  name: 'Regex Test',
  description: "Matches, capture and named groups, spans.",
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({
    pattern: t.Optional(t.String()),
    text: t.Optional(t.String()),
    flags: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
