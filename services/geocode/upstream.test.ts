/** geocode against its recorded upstream answers on a loopback server (test/support/live-data-recorded.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed, upstreamFailure } from '../../test/net/support'
import { conforms, recordedUpstreams } from '../../test/support/live-data-recorded'

const geocode = typed(manifest, handler)
const { ctx, upstreams } = recordedUpstreams()

describe('geocode', () => {
  test('matches with country, admin areas, population', async () => {
    const out = await geocode({ q: 'Berlin', count: 2 }, ctx())
    conforms('geocode', out)
    expect(out.count).toBe(2)
    expect(out.results[0]).toEqual({
      id: 2950159,
      name: 'Berlin',
      latitude: 52.52437,
      longitude: 13.41053,
      country: 'Germany',
      country_code: 'DE',
      admin1: 'State of Berlin',
      admin2: null,
      timezone: 'Europe/Berlin',
      population: 3426354,
      elevation: 74,
      feature_code: 'PPLC',
      postcodes: ['10967', '13347'],
    })
    expect(out.results[1]).toMatchObject({ country_code: 'US', admin2: 'Coos' })
  })
  test('no `results` key (Open-Meteo\'s "no match"): 404 NOT_FOUND', async () => {
    await serviceError(geocode({ q: 'Qwertyuiopville' }, ctx()), 404, 'NOT_FOUND')
  })
  test('one character: 422', async () => {
    await serviceError(geocode({ q: 'B' }, ctx()), 422, 'INVALID_INPUT')
  })
  test('Open-Meteo 400 {error, reason}: 502 not retryable, with the reason', async () => {
    const e = await upstreamFailure(
      (async () => {
        const { openMeteo } = await import('../../services/_lib/live-data')
        return openMeteo(upstreams()('open-meteo'), '/forecast', { latitude: 91, longitude: 0, current: 'x' }, 0)
      })(),
      502,
      'open-meteo',
      false,
    )
    expect(e.message).toContain('Latitude must be in range')
  })
})
