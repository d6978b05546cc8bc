import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'geocode',
  name: 'Geocode',
  description: "Place name to latitude/longitude, country, population.",
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    q: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
