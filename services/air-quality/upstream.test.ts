/** air-quality against its recorded upstream answers on a loopback server (test/support/live-data-recorded.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed } from '../../test/net/support'
import { conforms, recordedUpstreams } from '../../test/support/live-data-recorded'

const airQuality = typed(manifest, handler)
const { ctx, failureForms } = recordedUpstreams()

describe('air-quality', () => {
  test('AQI values and EPA/EEA categories', async () => {
    const out = await airQuality({ lat: 48.85, lon: 2.35 }, ctx())
    conforms('air-quality', out)
    expect(out).toMatchObject({
      us_aqi: 151,
      us_aqi_category: 'Unhealthy',
      european_aqi: 27,
      european_aqi_category: 'Fair',
      pm2_5: 7.9,
      pm10: 12.4,
      ozone: 88,
      uv_index: 4.15,
    })
    expect(out.units.pm2_5).toBe('μg/m³')
  })
  test('all values null: 404, not an empty 200', async () => {
    await serviceError(airQuality({ lat: 0, lon: 0 }, ctx()), 404, 'NOT_FOUND')
  })
  test('upstream failure forms', () =>
    failureForms('air', 'open-meteo-air-quality', () => airQuality({ lat: 2.5, lon: 2.5 }, ctx())))
})
