/**
 * #24 item 6d: every datetime service at the ends of the calendar. Dates at the limits of JavaScript's range
 * (-271821-04-20, +275760-09-13), five-digit years and their neighbours through extreme time zones answer either a
 * schema-valid result with no invalid date in it, or a 4xx naming the field; never a 500. Through the fixture runner
 * (the route's input preparation, the declared output schema). Known answers for the supported range are in the
 * services' fixtures.json.
 */
import { afterAll, expect, test } from 'bun:test'
import { entries } from '../support/entries'
import { ServiceError, type TierName } from '../../runtime/sdk'
import { schemaProblems, startFixtureServers } from '../support/fixture-run'

const servers = startFixtureServers()
afterAll(() => servers.close())

const EXTREMES = [
  '-271821-04-20',
  '+275760-09-13',
  '-271821-04-20T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00+14:00',
  '+275760-09-12T23:00:00-05:00',
  '+275760-09-14',
  '+010000-01-01',
  '0000-01-01',
  '0001-01-01T00:00:00+14:00',
  '9999-12-31T23:59:59-12:00',
  '9999-12-31',
]
const ZONES = ['Pacific/Kiritimati', 'Etc/GMT+12']
const NUMBERS = [8.64e15, -8.64e15, 8.64e15 + 1, 8.64e12, -8.64e12, 1e300, -1e300]

const inputs: Record<string, unknown[]> = {
  'date-diff': [
    { start: '-271821-04-20', end: '+275760-09-13' },
    { start: '+275760-09-13', end: '-271821-04-20' },
    ...EXTREMES.flatMap((x) => [
      { start: x, end: '2020-01-01' },
      { start: '2020-01-01', end: x },
    ]),
  ],
  'timestamp-convert': [
    ...EXTREMES.flatMap((value) => [{ value }, ...ZONES.map((timezone) => ({ value, timezone }))]),
    ...NUMBERS.flatMap((value) =>
      ['auto', 'ms', 's'].flatMap((unit) => [{ value, unit }, ...ZONES.map((timezone) => ({ value, unit, timezone }))]),
    ),
  ],
  'ical-generate': EXTREMES.flatMap((x) => [
    { events: [{ title: 'a', start: x }] },
    { events: [{ title: 'a', start: x, all_day: true }] },
    { events: [{ title: 'a', start: x, duration_minutes: 525_600 }] },
    { events: [{ title: 'a', start: '2020-01-01T00:00:00Z', end: x }] },
    ...ZONES.map((timezone) => ({ events: [{ title: 'a', start: x.replace(/(Z|[+-]\d\d:\d\d)$/, '') }], timezone })),
  ]),
  'iso-week-date': [...EXTREMES, '0001-01-01', '9999-12-31'].map((date) => ({ date })),
  'calendar-month': [
    { year: 1, month: 1 },
    { year: 9999, month: 12 },
    { year: 0, month: 1 },
    { year: 10_000, month: 1 },
    { year: -271_821, month: 4 },
    { year: 275_760, month: 9 },
  ],
  'mock-data-generate': [
    { fields: [{ name: 'd', type: 'date', min: -8.64e12, max: 8.64e12 }], count: 3 },
    { fields: [{ name: 'd', type: 'datetime', min: -62135596800, max: 253402300799 }], count: 3, seed: 1 },
  ],
}

test('the datetime family is covered', () => {
  const family = entries.filter((e) => e.manifest.category === 'datetime' && e.handler).map((e) => e.folder)
  expect(family.length).toBeGreaterThan(4)
  for (const slug of family) expect(Object.keys(inputs)).toContain(slug)
})

for (const [slug, cases] of Object.entries(inputs))
  test(`${slug}: extreme dates answer a valid result or a 4xx, never a 500`, async () => {
    const entry = entries.find((e) => e.folder === slug)!
    const tier = Object.keys(entry.manifest.pricing)[0] as TierName
    const outcomes: string[] = []
    for (const input of cases) {
      const run = await servers.run(entry, { name: 'extreme', input })
      const what = JSON.stringify(input)
      if (run.error !== undefined) {
        const e = run.error
        expect([what, e instanceof ServiceError && e.status < 500 ? 'a 4xx' : String(e)]).toEqual([what, 'a 4xx'])
        outcomes.push('4xx')
      } else {
        expect([what, schemaProblems(entry, tier, run.out)]).toEqual([what, []])
        const text = JSON.stringify(run.out)
        expect([what, /Invalid DateTime|NaN/.test(text)]).toEqual([what, false])
        outcomes.push('ok')
      }
    }
    expect(outcomes.length).toBe(cases.length)
  })
