import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'llm-token-estimate',
  name: 'Llm Token Estimate',
  description: "Heuristic token estimate and illustrative cost projection.",
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
