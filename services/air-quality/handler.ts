import { handlerFor, ServiceError } from '../../runtime/sdk'
import { coords, malformed, num, openMeteo, TEN_MINUTES } from '../_lib/live-data'
import manifest from './manifest'

const VARS = [
  'us_aqi',
  'european_aqi',
  'pm2_5',
  'pm10',
  'ozone',
  'nitrogen_dioxide',
  'sulphur_dioxide',
  'carbon_monoxide',
  'uv_index',
]

/** US EPA AQI band (breakpoints 50/100/150/200/300). */
export function usCategory(aqi: number | null) {
  if (aqi === null) return null
  if (aqi <= 50) return 'Good' as const
  if (aqi <= 100) return 'Moderate' as const
  if (aqi <= 150) return 'Unhealthy for Sensitive Groups' as const
  if (aqi <= 200) return 'Unhealthy' as const
  if (aqi <= 300) return 'Very Unhealthy' as const
  return 'Hazardous' as const
}

/** European AQI band as Open-Meteo documents it (20/40/60/80/100). */
export function euCategory(aqi: number | null) {
  if (aqi === null) return null
  if (aqi <= 20) return 'Good' as const
  if (aqi <= 40) return 'Fair' as const
  if (aqi <= 60) return 'Moderate' as const
  if (aqi <= 80) return 'Poor' as const
  if (aqi <= 100) return 'Very poor' as const
  return 'Extremely poor' as const
}

interface AirQuality {
  latitude: number
  longitude: number
  timezone: string
  current_units?: Record<string, string>
  current?: Record<string, number | string | null>
}

export default handlerFor(manifest, async ({ lat, lon }, ctx) => {
  const c = coords(lat, lon)
  const d = await openMeteo<AirQuality>(
    ctx.upstream('open-meteo-air-quality'),
    '/air-quality',
    { latitude: c.lat, longitude: c.lon, current: VARS.join(','), timezone: 'auto' },
    TEN_MINUTES,
  )
  const cur = d.current
  if (!cur || typeof cur.time !== 'string' || typeof d.latitude !== 'number')
    throw malformed('open-meteo-air-quality', 'current values')
  const v = Object.fromEntries(VARS.map((k) => [k, num(cur[k])])) as Record<string, number | null>
  if (VARS.every((k) => v[k] === null))
    throw new ServiceError(404, 'NOT_FOUND', `no air-quality data for ${c.lat}, ${c.lon}`)
  const units = Object.fromEntries(
    VARS.filter((k) => typeof d.current_units?.[k] === 'string').map((k) => [k, d.current_units![k]]),
  )
  return {
    latitude: d.latitude,
    longitude: d.longitude,
    timezone: String(d.timezone ?? 'GMT'),
    time: cur.time,
    us_aqi: v.us_aqi,
    us_aqi_category: usCategory(v.us_aqi),
    european_aqi: v.european_aqi,
    european_aqi_category: euCategory(v.european_aqi),
    pm2_5: v.pm2_5,
    pm10: v.pm10,
    ozone: v.ozone,
    nitrogen_dioxide: v.nitrogen_dioxide,
    sulphur_dioxide: v.sulphur_dioxide,
    carbon_monoxide: v.carbon_monoxide,
    uv_index: v.uv_index,
    units,
    attribution: ctx.upstream('open-meteo-air-quality').attribution,
  }
})
