import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'sentiment-analyze',
  name: 'Sentiment Analyze',
  description: "Model-backed; positive/negative/neutral, score, magnitude, reason.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    text: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
