import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'json-repair',
  name: 'Json Repair',
  description: "Model-backed; fixes malformed or truncated JSON.",
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.008),
  model: 'auto',
  needs: ['model'],
  input: t.Object({
    json: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
