/** fx-rate against its recorded upstream answers on a loopback server (test/support/live-data-recorded.ts). */
import { describe, expect, test } from 'bun:test'
import { easterSunday, fxTtl, nextPublication } from './lib'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed } from '../../test/net/support'
import { conforms, recordedUpstreams } from '../../test/support/live-data-recorded'

const fxRate = typed(manifest, handler)
const { up, ctx, failureForms } = recordedUpstreams()

describe('fx-rate', () => {
  test('conversion arithmetic: 100 USD → EUR at 0.93336 = 93.336', async () => {
    const out = await fxRate({ from: 'usd', to: 'EUR', amount: 100 }, ctx())
    conforms('fx-rate', out)
    expect(out).toMatchObject({
      from: 'USD',
      to: 'EUR',
      amount: 100,
      rate: 0.93336,
      result: 93.336,
      inverse_rate: 1.07139796005828,
      date: '2024-05-02',
    })
    expect(out.attribution.source).toContain('European Central Bank')
  })
  test('float noise removed: 0.1 EUR → JPY at 166.23 = 16.623', async () => {
    expect((await fxRate({ from: 'EUR', to: 'JPY', amount: 0.1 }, ctx())).result).toBe(16.623)
  })
  test('same currency: rate 1', async () => {
    expect(await fxRate({ from: 'EUR', to: 'EUR', amount: 5 }, ctx())).toMatchObject({ rate: 1, result: 5 })
  })
  test('unknown currencies: 422 with the supported list', async () => {
    const a = await serviceError(fxRate({ from: 'XXX', to: 'EUR' }, ctx()), 422, 'INVALID_INPUT')
    expect(a.message).toContain('AUD, EUR, GBP, JPY, USD')
    const b = await serviceError(fxRate({ from: 'USD', to: 'ABC' }, ctx()), 422, 'INVALID_INPUT')
    expect(b.message).toContain('supported: AUD, EUR, GBP, JPY, USD')
  })
  test('next ECB publication and cache lifetime', () => {
    // Thu 2 May 2024 12:00 UTC (14:00 CEST): next is 16:00 CEST = 14:00 UTC the same day.
    expect(new Date(nextPublication(Date.parse('2024-05-02T12:00:00Z'))).toISOString()).toBe('2024-05-02T14:00:00.000Z')
    // Fri 29 Mar 2024 is Good Friday, Mon 1 Apr Easter Monday (TARGET holidays): Thu 28 Mar 17:00 UTC → Tue 2 Apr 14:00 UTC (CEST).
    expect(new Date(nextPublication(Date.parse('2024-03-28T17:00:00Z'))).toISOString()).toBe('2024-04-02T14:00:00.000Z')
    // Winter (CET): Fri 6 Dec 2024 16:00 UTC → Mon 9 Dec 15:00 UTC.
    expect(new Date(nextPublication(Date.parse('2024-12-06T16:00:00Z'))).toISOString()).toBe('2024-12-09T15:00:00.000Z')
    // 24 Dec 2024 after publication → 27 Dec (25 and 26 are closed).
    expect(new Date(nextPublication(Date.parse('2024-12-24T18:00:00Z'))).toISOString()).toBe('2024-12-27T15:00:00.000Z')
    expect(new Date(easterSunday(2024)).toISOString().slice(0, 10)).toBe('2024-03-31')
    expect(new Date(easterSunday(2025)).toISOString().slice(0, 10)).toBe('2025-04-20')
    // Before publication the cache lasts until it; in the hour after it, 5 minutes.
    expect(fxTtl(Date.parse('2024-05-02T12:00:00Z'))).toBe(2 * 3600_000)
    expect(fxTtl(Date.parse('2024-05-02T14:10:00Z'))).toBe(5 * 60_000)
  })
  test('a burst of 10 identical conversions makes one upstream request', async () => {
    const c = ctx('2024-05-02T10:00:00Z')
    const before = up.hits('/fx/latest')
    await Promise.all(Array.from({ length: 10 }, (_, i) => fxRate({ from: 'EUR', to: 'GBP', amount: i + 1 }, c)))
    await fxRate({ from: 'EUR', to: 'USD' }, c)
    expect(up.hits('/fx/latest') - before).toBe(1)
  })
  test('upstream failure forms', () =>
    failureForms('fx', 'frankfurter', () => fxRate({ from: 'GBP', to: 'EUR' }, ctx())))
})
