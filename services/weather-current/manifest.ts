import { defineService, flat, t } from '../../runtime/sdk'
import { attributionSchema, latField, lonField, unitsField } from '../_lib/live-data'

const n = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'weather-current',
  name: 'Current weather',
  description:
    'Current conditions at a latitude/longitude from Open-Meteo (national weather-service models): temperature, feels-like, relative humidity, precipitation, WMO weather code and its description, cloud cover, sea-level pressure, wind speed, direction and gusts, day/night, in the location\'s time zone. Coordinates are rounded to 3 decimals; answers are cached 10 minutes. Data CC BY 4.0 by Open-Meteo.com (free tier non-commercial; see attribution).',
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  needs: ['upstream'],
  upstreams: ['open-meteo'],
  input: t.Object({ lat: latField(), lon: lonField(), units: unitsField() }, { additionalProperties: true }),
  aliases: { fields: { latitude: 'lat', longitude: 'lon', lng: 'lon' } },
  output: t.Object({
    latitude: t.Number({ description: 'Grid-cell latitude used by the model.' }),
    longitude: t.Number(),
    elevation: n('Metres above sea level.'),
    timezone: t.String({ description: 'IANA time zone of the location.' }),
    time: t.String({ description: 'Observation time, local (ISO 8601 without offset).' }),
    utc_offset_seconds: t.Integer(),
    temperature: n('Air temperature at 2 m.'),
    apparent_temperature: n('Feels-like temperature.'),
    humidity_percent: n('Relative humidity at 2 m.'),
    precipitation: n('Precipitation of the preceding interval (mm or inch).'),
    weather_code: t.Union([t.Integer(), t.Null()], { description: 'WMO weather interpretation code.' }),
    conditions: t.Union([t.String(), t.Null()], { description: 'Description of the WMO code, e.g. "Partly cloudy".' }),
    is_day: t.Union([t.Boolean(), t.Null()]),
    cloud_cover_percent: n('Total cloud cover.'),
    pressure_hpa: n('Mean sea-level pressure.'),
    wind_speed: n('Wind speed at 10 m (km/h or mph).'),
    wind_direction_deg: n('Wind direction at 10 m, degrees from north.'),
    wind_gusts: n('Gusts at 10 m (km/h or mph).'),
    units: t.Object({ temperature: t.String(), wind_speed: t.String(), precipitation: t.String() }),
    attribution: attributionSchema(),
  }),
  examples: [
    {
      name: 'Berlin',
      input: { lat: 52.52, lon: 13.41 },
      output: {
        latitude: 52.52, longitude: 13.419998, elevation: 38, timezone: 'Europe/Berlin', time: '2024-05-02T14:00', utc_offset_seconds: 7200, temperature: 18.3, apparent_temperature: 16.9,
        humidity_percent: 52, precipitation: 0, weather_code: 2, conditions: 'Partly cloudy', is_day: true, cloud_cover_percent: 41, pressure_hpa: 1016.2, wind_speed: 11.2, wind_direction_deg: 250, wind_gusts: 24.5,
        units: { temperature: '°C', wind_speed: 'km/h', precipitation: 'mm' },
        attribution: { source: 'Open-Meteo.com weather API', url: 'https://open-meteo.com/en/terms', license: 'CC BY 4.0', terms: 'free tier non-commercial; commercial use needs an Open-Meteo API plan' },
      },
    },
  ],
})
