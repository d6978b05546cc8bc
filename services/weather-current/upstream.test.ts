/** weather-current against its recorded upstream answers on a loopback server (test/support/live-data-recorded.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed } from '../../test/net/support'
import { conforms, recordedUpstreams } from '../../test/support/live-data-recorded'

const weatherCurrent = typed(manifest, handler)
const { up, ctx, failureForms } = recordedUpstreams()

describe('weather-current', () => {
  test('fields, WMO description, units, attribution', async () => {
    const out = await weatherCurrent({ lat: 52.52, lon: 13.41 }, ctx())
    conforms('weather-current', out)
    expect(out).toMatchObject({
      timezone: 'Europe/Berlin',
      time: '2024-05-02T14:00',
      temperature: 18.3,
      humidity_percent: 52,
      weather_code: 2,
      conditions: 'Partly cloudy',
      is_day: true,
      wind_speed: 11.2,
      pressure_hpa: 1016.2,
      units: { temperature: '°C', wind_speed: 'km/h', precipitation: 'mm' },
    })
    expect(out.attribution.license).toBe('CC BY 4.0')
    expect(out.attribution.terms).toContain('non-commercial')
  })
  test('imperial units are requested from the upstream', async () => {
    const out = await weatherCurrent({ lat: 52.52, lon: 13.41, units: 'imperial' }, ctx())
    expect(out).toMatchObject({ temperature: 64.9, units: { temperature: '°F' } })
  })
  test('coordinates are validated before any call', async () => {
    await serviceError(weatherCurrent({ lat: 91, lon: 0 }, ctx()), 422, 'INVALID_INPUT')
    await serviceError(weatherCurrent({ lat: undefined as unknown as number, lon: 0 }, ctx()), 422, 'INVALID_INPUT')
  })
  test('a burst of 10 identical calls makes one upstream request; later calls within 10 min are cached', async () => {
    const c = ctx()
    const before = up.hits('/meteo/forecast')
    await Promise.all(Array.from({ length: 10 }, () => weatherCurrent({ lat: 40.7128, lon: -74.006 }, c)))
    await weatherCurrent({ lat: 40.71281, lon: -74.00601 }, c)
    expect(up.hits('/meteo/forecast') - before).toBe(1)
  })
  test('upstream 500 / garbage / timeout', () =>
    failureForms('meteo', 'open-meteo', () => weatherCurrent({ lat: 1.5, lon: 1.5 }, ctx())))
})
