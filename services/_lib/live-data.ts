/**
 * Shared by the live-data services: the attribution schema (the attribution itself is `ctx.upstream(name).attribution`,
 * declared once in services/upstreams.ts), coordinate fields, WMO weather codes.
 */
import { invalid, ServiceError, t, type Upstream } from '../../runtime/sdk'

export const attributionSchema = () =>
  t.Object(
    {
      source: t.String({ description: 'Where the data comes from.' }),
      url: t.String({ description: 'Terms of the source.' }),
      license: t.String({ description: 'Licence of the data.' }),
      terms: t.String({ description: 'What the terms require.' }),
    },
    { description: 'Source and terms of the data (show it with the data).' },
  )

export const latField = () =>
  t.Number({ minimum: -90, maximum: 90, description: 'Latitude in decimal degrees (WGS84), -90 to 90.' })
export const lonField = () =>
  t.Number({ minimum: -180, maximum: 180, description: 'Longitude in decimal degrees (WGS84), -180 to 180.' })

/** Checks lat/lon (required, finite, in range) and rounds them to 3 decimals (~110 m; better cache hits). */
export function coords(lat: number | undefined, lon: number | undefined): { lat: number; lon: number } {
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90)
    throw invalid('lat', 'is required: a latitude from -90 to 90')
  if (typeof lon !== 'number' || !Number.isFinite(lon) || lon < -180 || lon > 180)
    throw invalid('lon', 'is required: a longitude from -180 to 180')
  return { lat: Math.round(lat * 1000) / 1000, lon: Math.round(lon * 1000) / 1000 }
}

/** WMO weather interpretation codes (WW) as Open-Meteo documents them. */
export const WMO_CODES: Record<number, string> = {
  0: 'Clear sky',
  1: 'Mainly clear',
  2: 'Partly cloudy',
  3: 'Overcast',
  45: 'Fog',
  48: 'Depositing rime fog',
  51: 'Light drizzle',
  53: 'Moderate drizzle',
  55: 'Dense drizzle',
  56: 'Light freezing drizzle',
  57: 'Dense freezing drizzle',
  61: 'Slight rain',
  63: 'Moderate rain',
  65: 'Heavy rain',
  66: 'Light freezing rain',
  67: 'Heavy freezing rain',
  71: 'Slight snow fall',
  73: 'Moderate snow fall',
  75: 'Heavy snow fall',
  77: 'Snow grains',
  80: 'Slight rain showers',
  81: 'Moderate rain showers',
  82: 'Violent rain showers',
  85: 'Slight snow showers',
  86: 'Heavy snow showers',
  95: 'Thunderstorm',
  96: 'Thunderstorm with slight hail',
  99: 'Thunderstorm with heavy hail',
}
export const conditions = (code: number | null | undefined): string | null =>
  code === null || code === undefined ? null : (WMO_CODES[code] ?? `WMO code ${code}`)

export const unitsField = () =>
  t.Optional(
    t.Union([t.Literal('metric'), t.Literal('imperial')], {
      default: 'metric',
      description: 'metric (°C, km/h, mm) or imperial (°F, mph, inch).',
    }),
  )

export function unitParams(units: 'metric' | 'imperial') {
  return units === 'imperial'
    ? { temperature_unit: 'fahrenheit', wind_speed_unit: 'mph', precipitation_unit: 'inch' }
    : {}
}

/** A number or null from an upstream field (anything else becomes null). */
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/** Open-Meteo answers HTTP 400 `{error: true, reason}` for a request it refuses. */
export async function openMeteo<T>(
  up: Upstream,
  path: string,
  query: Record<string, string | number | boolean | undefined>,
  ttlMs: number,
): Promise<T> {
  const { status, data } = await up.getJson<T & { error?: boolean; reason?: string }>(path, query, {
    ttlMs,
    allowStatus: [400],
  })
  if (status === 400 || (data as { error?: boolean })?.error) {
    throw new ServiceError(
      502,
      'UPSTREAM_ERROR',
      `${up.name} refused the request: ${(data as { reason?: string })?.reason ?? 'HTTP 400'}`,
      { retryable: false, extra: { upstream: up.name } },
    )
  }
  if (!data || typeof data !== 'object')
    throw new ServiceError(502, 'UPSTREAM_ERROR', `${up.name} answered an unexpected body`, {
      retryable: true,
      extra: { upstream: up.name },
    })
  return data as T
}

/** A 502 for an upstream answer that lacks what the service needs. */
export const malformed = (upstream: string, what: string) =>
  new ServiceError(502, 'UPSTREAM_ERROR', `${upstream} answered without ${what}`, {
    retryable: true,
    extra: { upstream },
  })

export const TEN_MINUTES = 10 * 60 * 1000
