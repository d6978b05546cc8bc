import { expect, test } from 'bun:test'
import handler, { fold } from './handler'
import { testContext } from '../../runtime/sdk'

test('RFC 5545 folding: 75 octets, continuation lines start with a space, UTF-8 never split', () => {
  const f = fold('SUMMARY:' + 'A'.repeat(100))
  const parts = f.split('\r\n')
  expect(parts.map((p) => Buffer.byteLength(p))).toEqual([75, 34])
  expect(parts[1].startsWith(' ')).toBe(true)
  expect(f.split('\r\n ').join('')).toBe('SUMMARY:' + 'A'.repeat(100))
  const u = fold('SUMMARY:' + 'é'.repeat(60))
  for (const p of u.split('\r\n')) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(75)
  expect(u.split('\r\n ').join('')).toBe('SUMMARY:' + 'é'.repeat(60))
})

test('all-day and zoned events are written with VALUE=DATE and TZID; every line ends in CRLF', async () => {
  const { ics } = (await handler(
    {
      timezone: 'Europe/Paris',
      events: [
        { title: 'Holiday', start: '2024-07-14', uid: 'h' },
        { title: 'Dinner', start: '2024-07-14T20:00:00', end: '2024-07-14T22:30:00', uid: 'd' },
      ],
    } as never,
    testContext({ now: () => new Date('2024-04-01T12:00:00Z') }),
  )) as { ics: string }
  expect(ics).toContain('DTSTART;VALUE=DATE:20240714\r\nDTEND;VALUE=DATE:20240715\r\n')
  expect(ics).toContain('DTSTART;TZID=Europe/Paris:20240714T200000\r\nDTEND;TZID=Europe/Paris:20240714T223000\r\n')
  expect(ics.split('\r\n').every((l) => !l.includes('\n'))).toBe(true)
  expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true)
})
