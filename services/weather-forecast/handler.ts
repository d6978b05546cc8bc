import { handlerFor, invalid } from '../../runtime/sdk'
import { conditions, coords, malformed, num, openMeteo, TEN_MINUTES, unitParams } from '../_lib/live-data'
import manifest from './manifest'

const VARS = [
  'weather_code',
  'temperature_2m_max',
  'temperature_2m_min',
  'apparent_temperature_max',
  'apparent_temperature_min',
  'precipitation_sum',
  'precipitation_probability_max',
  'wind_speed_10m_max',
  'wind_gusts_10m_max',
  'sunrise',
  'sunset',
  'uv_index_max',
]

interface Forecast {
  latitude: number
  longitude: number
  elevation?: number
  timezone: string
  utc_offset_seconds: number
  daily_units?: Record<string, string>
  daily?: Record<string, Array<number | string | null>>
}

export default handlerFor(manifest, async ({ lat, lon, days = 7, units = 'metric' }, ctx) => {
  const c = coords(lat, lon)
  if (!Number.isInteger(days) || days < 1 || days > 16) throw invalid('days', 'must be an integer from 1 to 16')
  const d = await openMeteo<Forecast>(
    ctx.upstream('open-meteo'),
    '/forecast',
    {
      latitude: c.lat,
      longitude: c.lon,
      daily: VARS.join(','),
      timezone: 'auto',
      forecast_days: days,
      ...unitParams(units),
    },
    TEN_MINUTES,
  )
  const daily = d.daily
  if (!daily || !Array.isArray(daily.time) || !daily.time.length) throw malformed('open-meteo', 'a daily forecast')
  const col = (k: string, i: number) => (Array.isArray(daily[k]) ? daily[k][i] : null)
  const str = (v: unknown) => (typeof v === 'string' ? v : null)
  const u = d.daily_units ?? {}
  return {
    latitude: d.latitude,
    longitude: d.longitude,
    elevation: num(d.elevation),
    timezone: String(d.timezone ?? 'GMT'),
    utc_offset_seconds: Math.trunc(num(d.utc_offset_seconds) ?? 0),
    units: {
      temperature: u.temperature_2m_max ?? (units === 'imperial' ? '°F' : '°C'),
      wind_speed: u.wind_speed_10m_max ?? (units === 'imperial' ? 'mp/h' : 'km/h'),
      precipitation: u.precipitation_sum ?? (units === 'imperial' ? 'inch' : 'mm'),
    },
    days: daily.time.slice(0, days).map((date, i) => {
      const code = num(col('weather_code', i))
      return {
        date: String(date),
        weather_code: code === null ? null : Math.trunc(code),
        conditions: conditions(code),
        temperature_max: num(col('temperature_2m_max', i)),
        temperature_min: num(col('temperature_2m_min', i)),
        apparent_temperature_max: num(col('apparent_temperature_max', i)),
        apparent_temperature_min: num(col('apparent_temperature_min', i)),
        precipitation_sum: num(col('precipitation_sum', i)),
        precipitation_probability_max: num(col('precipitation_probability_max', i)),
        wind_speed_max: num(col('wind_speed_10m_max', i)),
        wind_gusts_max: num(col('wind_gusts_10m_max', i)),
        sunrise: str(col('sunrise', i)),
        sunset: str(col('sunset', i)),
        uv_index_max: num(col('uv_index_max', i)),
      }
    }),
    attribution: ctx.upstream('open-meteo').attribution,
  }
})
