import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'uuid-generate',
  name: 'Uuid Generate',
  description: "Version 4 (random) or 5 (name-based); batch; optional uppercase / no hyphens.",
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    version: t.Optional(t.Number()),
    count: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
