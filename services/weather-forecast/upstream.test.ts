/** weather-forecast against its recorded upstream answers on a loopback server (test/support/live-data-recorded.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed } from '../../test/net/support'
import { conforms, recordedUpstreams } from '../../test/support/live-data-recorded'

const weatherForecast = typed(manifest, handler)
const { up, ctx } = recordedUpstreams()

describe('weather-forecast', () => {
  test('days with conditions', async () => {
    const out = await weatherForecast({ lat: 52.52, lon: 13.41, days: 2 }, ctx())
    conforms('weather-forecast', out)
    expect(out.days).toHaveLength(2)
    expect(out.days[1]).toEqual({
      date: '2024-05-03',
      weather_code: 61,
      conditions: 'Slight rain',
      temperature_max: 16.2,
      temperature_min: 10.4,
      apparent_temperature_max: 14.8,
      apparent_temperature_min: 8.8,
      precipitation_sum: 2.4,
      precipitation_probability_max: 71,
      wind_speed_max: 18.7,
      wind_gusts_max: 39.6,
      sunrise: '2024-05-03T05:30',
      sunset: '2024-05-03T20:35',
      uv_index_max: 3.1,
    })
    expect(up.requests.at(-1)!.url).toContain('forecast_days=2')
  })
  test('days out of range: 422', async () => {
    await serviceError(weatherForecast({ lat: 1, lon: 1, days: 17 }, ctx()), 422, 'INVALID_INPUT')
  })
})
