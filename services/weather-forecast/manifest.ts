import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'weather-forecast',
  name: 'Weather Forecast',
  description: "Daily high/low, precipitation, conditions.",
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  input: t.Object({
    lat: t.Optional(t.Number()),
    lon: t.Optional(t.Number()),
    days: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
