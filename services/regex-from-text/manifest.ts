import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'regex-from-text',
  name: 'Regex From Text',
  description: "Model-backed; a regular expression from a plain-English description, compiled and tested.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    description: t.Optional(t.String()),
    flavor: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
