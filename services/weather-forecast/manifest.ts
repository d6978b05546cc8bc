import { defineService, flat, t } from '../../runtime/sdk'
import { attributionSchema, latField, lonField, unitsField } from '../_lib/live-data'

const n = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'weather-forecast',
  name: 'Weather forecast',
  description:
    'Daily forecast for 1-16 days at a latitude/longitude from Open-Meteo: WMO weather code and description, high/low and feels-like high/low, precipitation total and maximum probability, maximum wind and gusts, sunrise, sunset and UV index, dates in the location\'s time zone. Coordinates are rounded to 3 decimals; answers are cached 10 minutes. Data CC BY 4.0 by Open-Meteo.com (free tier non-commercial; see attribution).',
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  needs: ['upstream'],
  upstreams: ['open-meteo'],
  input: t.Object(
    {
      lat: latField(),
      lon: lonField(),
      days: t.Optional(t.Integer({ minimum: 1, maximum: 16, default: 7, description: 'Days from today, 1-16 (default 7).' })),
      units: unitsField(),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { latitude: 'lat', longitude: 'lon', lng: 'lon' } },
  output: t.Object({
    latitude: t.Number(),
    longitude: t.Number(),
    elevation: n('Metres above sea level.'),
    timezone: t.String({ description: 'IANA time zone; dates and times are local to it.' }),
    utc_offset_seconds: t.Integer(),
    units: t.Object({ temperature: t.String(), wind_speed: t.String(), precipitation: t.String() }),
    days: t.Array(
      t.Object({
        date: t.String({ description: 'YYYY-MM-DD, local.' }),
        weather_code: t.Union([t.Integer(), t.Null()], { description: 'Most severe WMO code of the day.' }),
        conditions: t.Union([t.String(), t.Null()]),
        temperature_max: n('Daily high at 2 m.'),
        temperature_min: n('Daily low at 2 m.'),
        apparent_temperature_max: n('Feels-like high.'),
        apparent_temperature_min: n('Feels-like low.'),
        precipitation_sum: n('Total precipitation.'),
        precipitation_probability_max: n('Highest hourly probability of precipitation, percent.'),
        wind_speed_max: n('Highest wind speed at 10 m.'),
        wind_gusts_max: n('Highest gust at 10 m.'),
        sunrise: t.Union([t.String(), t.Null()], { description: 'Local ISO 8601 time.' }),
        sunset: t.Union([t.String(), t.Null()]),
        uv_index_max: n('Highest UV index.'),
      }),
    ),
    attribution: attributionSchema(),
  }),
  examples: [
    {
      name: 'Two days in Berlin',
      input: { lat: 52.52, lon: 13.41, days: 2 },
      output: {
        latitude: 52.52, longitude: 13.419998, elevation: 38, timezone: 'Europe/Berlin', utc_offset_seconds: 7200, units: { temperature: '°C', wind_speed: 'km/h', precipitation: 'mm' },
        days: [
          { date: '2024-05-02', weather_code: 3, conditions: 'Overcast', temperature_max: 19.8, temperature_min: 9.1, apparent_temperature_max: 18.2, apparent_temperature_min: 6.9, precipitation_sum: 0, precipitation_probability_max: 10, wind_speed_max: 14.1, wind_gusts_max: 30.2, sunrise: '2024-05-02T05:32', sunset: '2024-05-02T20:33', uv_index_max: 4.9 },
          { date: '2024-05-03', weather_code: 61, conditions: 'Slight rain', temperature_max: 16.2, temperature_min: 10.4, apparent_temperature_max: 14.8, apparent_temperature_min: 8.8, precipitation_sum: 2.4, precipitation_probability_max: 71, wind_speed_max: 18.7, wind_gusts_max: 39.6, sunrise: '2024-05-03T05:30', sunset: '2024-05-03T20:35', uv_index_max: 3.1 },
        ],
        attribution: { source: 'Open-Meteo.com weather API', url: 'https://open-meteo.com/en/terms', license: 'CC BY 4.0', terms: 'free tier non-commercial; commercial use needs an Open-Meteo API plan' },
      },
    },
  ],
})
