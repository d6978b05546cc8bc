import { defineService, flat, t } from '../../runtime/sdk'
import { attributionSchema, latField, lonField } from '../_lib/live-data'

const n = (description: string) => t.Union([t.Number(), t.Null()], { description })
const US = ['Good', 'Moderate', 'Unhealthy for Sensitive Groups', 'Unhealthy', 'Very Unhealthy', 'Hazardous'] as const
const EU = ['Good', 'Fair', 'Moderate', 'Poor', 'Very poor', 'Extremely poor'] as const

export default defineService({
  slug: 'air-quality',
  name: 'Air quality',
  description:
    'Current air quality at a latitude/longitude from the Open-Meteo air-quality API (CAMS models, about 11 km grid in Europe, 25 km elsewhere): US AQI and European AQI with their category names (US EPA and EEA bands), PM2.5, PM10, ozone, nitrogen dioxide, sulphur dioxide, carbon monoxide (μg/m³) and UV index. Cached 10 minutes. A location with no model data is a 404. Data CC BY 4.0 by Open-Meteo.com (free tier non-commercial; see attribution).',
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  needs: ['upstream'],
  upstreams: ['open-meteo-air-quality'],
  input: t.Object({ lat: latField(), lon: lonField() }, { additionalProperties: true }),
  aliases: { fields: { latitude: 'lat', longitude: 'lon', lng: 'lon' } },
  output: t.Object({
    latitude: t.Number(),
    longitude: t.Number(),
    timezone: t.String(),
    time: t.String({ description: 'Local time of the values (ISO 8601 without offset).' }),
    us_aqi: n('US EPA Air Quality Index (0-500).'),
    us_aqi_category: t.Union([...US.map((c) => t.Literal(c)), t.Null()], {
      description:
        'US EPA band: 0-50 Good, 51-100 Moderate, 101-150 Unhealthy for Sensitive Groups, 151-200 Unhealthy, 201-300 Very Unhealthy, 301+ Hazardous.',
    }),
    european_aqi: n('European Air Quality Index (EEA, 0-100+).'),
    european_aqi_category: t.Union([...EU.map((c) => t.Literal(c)), t.Null()], {
      description:
        'EEA band: 0-20 Good, 20-40 Fair, 40-60 Moderate, 60-80 Poor, 80-100 Very poor, over 100 Extremely poor.',
    }),
    pm2_5: n('Particulate matter < 2.5 μm, μg/m³.'),
    pm10: n('Particulate matter < 10 μm, μg/m³.'),
    ozone: n('O₃, μg/m³.'),
    nitrogen_dioxide: n('NO₂, μg/m³.'),
    sulphur_dioxide: n('SO₂, μg/m³.'),
    carbon_monoxide: n('CO, μg/m³.'),
    uv_index: n('UV index.'),
    units: t.Record(t.String(), t.String(), { description: 'Unit of each value as the upstream states it.' }),
    attribution: attributionSchema(),
  }),
  examples: [
    {
      name: 'Paris',
      input: { lat: 48.85, lon: 2.35 },
      output: {
        latitude: 48.85,
        longitude: 2.35,
        timezone: 'Europe/Paris',
        time: '2024-05-02T14:00',
        us_aqi: 42,
        us_aqi_category: 'Good',
        european_aqi: 27,
        european_aqi_category: 'Fair',
        pm2_5: 7.9,
        pm10: 12.4,
        ozone: 88,
        nitrogen_dioxide: 14.2,
        sulphur_dioxide: 1.3,
        carbon_monoxide: 180,
        uv_index: 4.15,
        units: {
          us_aqi: 'USAQI',
          european_aqi: 'EAQI',
          pm2_5: 'μg/m³',
          pm10: 'μg/m³',
          ozone: 'μg/m³',
          nitrogen_dioxide: 'μg/m³',
          sulphur_dioxide: 'μg/m³',
          carbon_monoxide: 'μg/m³',
          uv_index: '',
        },
        attribution: {
          source: 'Open-Meteo.com air quality API (CAMS data)',
          url: 'https://open-meteo.com/en/terms',
          license: 'CC BY 4.0',
          terms: 'free tier non-commercial; commercial use needs an Open-Meteo API plan',
        },
      },
    },
  ],
})
