import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'text-to-sql',
  name: 'Text To Sql',
  description: "Model-backed; schema optional.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.02),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    request: t.Optional(t.String()),
    schema: t.Optional(t.String()),
    dialect: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
