import { handlerFor, invalid, ServiceError } from '../../runtime/sdk'
import { malformed, num, openMeteo } from '../_lib/live-data'
import manifest from './manifest'

const DAY = 24 * 60 * 60 * 1000
const s = (v: unknown) => (typeof v === 'string' && v ? v : null)

interface Place {
  id: number
  name: string
  latitude: number
  longitude: number
  elevation?: number
  feature_code?: string
  country_code?: string
  country?: string
  admin1?: string
  admin2?: string
  timezone?: string
  population?: number
  postcodes?: string[]
}

export default handlerFor(manifest, async ({ q, count = 5, country_code, language = 'en' }, ctx) => {
  const query = (q ?? '').replace(/\s+/g, ' ').trim()
  if (query.length < 2) throw invalid('q', 'needs at least 2 characters')
  const d = await openMeteo<{ results?: Place[] }>(
    ctx.upstream('open-meteo-geocoding'),
    '/search',
    { name: query, count, language: language.toLowerCase(), format: 'json', countryCode: country_code?.toUpperCase() },
    DAY,
  )
  if (d.results === undefined)
    throw new ServiceError(
      404,
      'NOT_FOUND',
      `no place matches '${query}'${country_code ? ` in ${country_code.toUpperCase()}` : ''}`,
    )
  if (!Array.isArray(d.results)) throw malformed('open-meteo-geocoding', 'a results list')
  const results = d.results
    .filter((p) => p && typeof p.latitude === 'number' && typeof p.longitude === 'number' && typeof p.name === 'string')
    .slice(0, count)
    .map((p) => ({
      id: Math.trunc(num(p.id) ?? 0),
      name: p.name,
      latitude: p.latitude,
      longitude: p.longitude,
      country: s(p.country),
      country_code: s(p.country_code),
      admin1: s(p.admin1),
      admin2: s(p.admin2),
      timezone: s(p.timezone),
      population: typeof p.population === 'number' ? Math.trunc(p.population) : null,
      elevation: num(p.elevation),
      feature_code: s(p.feature_code),
      postcodes: Array.isArray(p.postcodes) ? p.postcodes.filter((x) => typeof x === 'string').slice(0, 50) : [],
    }))
  if (!results.length) throw new ServiceError(404, 'NOT_FOUND', `no place matches '${query}'`)
  return { query, count: results.length, results, attribution: ctx.upstream('open-meteo-geocoding').attribution }
})
