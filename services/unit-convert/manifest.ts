import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'unit-convert',
  name: 'Unit Convert',
  description: "Length, mass, volume, data size, time, speed, temperature.",
  category: 'math',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({
    value: t.Optional(t.Number()),
    from: t.Optional(t.String()),
    to: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
