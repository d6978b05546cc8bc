import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'air-quality',
  name: 'Air Quality',
  description: "US/European AQI, PM2.5, PM10, ozone.",
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    lat: t.Optional(t.Number()),
    lon: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
