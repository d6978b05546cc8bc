import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'ip-geolocate',
  name: 'Ip Geolocate',
  description: "Country, city, region, ISP/org, lat/lon.",
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    ip: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
