import { handlerFor } from '../../runtime/sdk'
import { conditions, coords, malformed, num, openMeteo, TEN_MINUTES, unitParams } from '../_lib/live-data'
import manifest from './manifest'

const VARS = [
  'temperature_2m',
  'relative_humidity_2m',
  'apparent_temperature',
  'is_day',
  'precipitation',
  'weather_code',
  'cloud_cover',
  'pressure_msl',
  'wind_speed_10m',
  'wind_direction_10m',
  'wind_gusts_10m',
]

interface Forecast {
  latitude: number
  longitude: number
  elevation?: number
  timezone: string
  utc_offset_seconds: number
  current_units?: Record<string, string>
  current?: Record<string, number | string | null>
}

export default handlerFor(manifest, async ({ lat, lon, units = 'metric' }, ctx) => {
  const c = coords(lat, lon)
  const up = ctx.upstream('open-meteo')
  const d = await openMeteo<Forecast>(
    up,
    '/forecast',
    { latitude: c.lat, longitude: c.lon, current: VARS.join(','), timezone: 'auto', ...unitParams(units) },
    TEN_MINUTES,
  )
  const cur = d.current
  if (!cur || typeof cur.time !== 'string' || typeof d.latitude !== 'number')
    throw malformed('open-meteo', 'current conditions')
  const u = d.current_units ?? {}
  const code = num(cur.weather_code)
  const isDay = num(cur.is_day)
  return {
    latitude: d.latitude,
    longitude: d.longitude,
    elevation: num(d.elevation),
    timezone: String(d.timezone ?? 'GMT'),
    time: cur.time,
    utc_offset_seconds: Math.trunc(num(d.utc_offset_seconds) ?? 0),
    temperature: num(cur.temperature_2m),
    apparent_temperature: num(cur.apparent_temperature),
    humidity_percent: num(cur.relative_humidity_2m),
    precipitation: num(cur.precipitation),
    weather_code: code === null ? null : Math.trunc(code),
    conditions: conditions(code),
    is_day: isDay === null ? null : isDay === 1,
    cloud_cover_percent: num(cur.cloud_cover),
    pressure_hpa: num(cur.pressure_msl),
    wind_speed: num(cur.wind_speed_10m),
    wind_direction_deg: num(cur.wind_direction_10m),
    wind_gusts: num(cur.wind_gusts_10m),
    units: {
      temperature: u.temperature_2m ?? (units === 'imperial' ? '°F' : '°C'),
      wind_speed: u.wind_speed_10m ?? (units === 'imperial' ? 'mp/h' : 'km/h'),
      precipitation: u.precipitation ?? (units === 'imperial' ? 'inch' : 'mm'),
    },
    attribution: ctx.upstream('open-meteo').attribution,
  }
})
