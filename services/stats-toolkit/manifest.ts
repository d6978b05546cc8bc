import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'stats-toolkit',
  name: 'Stats Toolkit',
  description: "Descriptive statistics; optional second series for correlation and regression.",
  category: 'math',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    data: t.Optional(t.Array(t.Unknown())),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
