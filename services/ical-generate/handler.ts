import { createHash } from 'node:crypto'
import { DateTime } from 'luxon'
import { handlerFor, invalid } from '../../runtime/sdk'
import { checkYears } from '../_lib/dates'
import manifest from './manifest'

/** RFC 5545 §3.3.11 TEXT escaping; control characters other than newlines and tab (not allowed in TEXT) are dropped. */
export const escapeText = (s: string) =>
  s
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')

/** RFC 5545 §3.1 folding: lines longer than 75 octets continue on lines starting with one space; never splits a UTF-8 character. */
export function fold(line: string): string {
  const out: string[] = []
  let cur = '',
    bytes = 0
  for (const ch of line) {
    const n = Buffer.byteLength(ch)
    if (bytes + n > (out.length ? 74 : 75)) {
      out.push(cur)
      cur = ''
      bytes = 0
    }
    cur += ch
    bytes += n
  }
  out.push(cur)
  return out.join('\r\n ')
}

const utc = (d: DateTime) => d.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")

export default handlerFor(manifest, ({ events, calendar_name, timezone }, ctx) => {
  if (timezone && !DateTime.now().setZone(timezone).isValid)
    throw invalid('timezone', `unknown IANA time zone '${timezone}'`)
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Agent Utility API//ical-generate//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ]
  if (calendar_name) lines.push(`X-WR-CALNAME:${escapeText(calendar_name)}`)
  const stamp = utc(DateTime.fromJSDate(ctx.now()))
  events.forEach((e, i) => {
    const at = `events/${i}`
    const allDay = e.all_day ?? /^\d{4}-\d{2}-\d{2}$/.test(e.start)
    const zone = timezone ?? 'utc'
    const start = DateTime.fromISO(e.start, { zone, setZone: true })
    if (!start.isValid) throw invalid(`${at}/start`, 'is not an ISO-8601 date or date-time')
    let end = e.end
      ? DateTime.fromISO(e.end, { zone, setZone: true })
      : start.plus(allDay ? { days: 1 } : { minutes: e.duration_minutes ?? 60 })
    if (!end.isValid) throw invalid(`${at}/end`, 'is not an ISO-8601 date or date-time')
    if (e.end && e.duration_minutes) throw invalid(`${at}/duration_minutes`, 'give end or duration_minutes, not both')
    if (allDay && !e.end && e.duration_minutes)
      end = start.plus({ days: Math.max(1, Math.ceil(e.duration_minutes / 1440)) })
    if (end <= start) throw invalid(`${at}/end`, 'must be after start')
    const tzid = !allDay && !!timezone && !/[zZ]|[+-]\d\d:?\d\d$/.test(e.start)
    const written = (d: DateTime) => (allDay ? d : tzid ? d.setZone(timezone) : d.toUTC())
    // iCalendar writes four-digit years only (RFC 5545 DATE): a date written beyond them is the caller's to fix.
    checkYears(`${at}/start`, written(start).year)
    checkYears(e.end ? `${at}/end` : e.duration_minutes ? `${at}/duration_minutes` : `${at}/start`, written(end).year)
    const when = (d: DateTime) =>
      allDay
        ? `;VALUE=DATE:${d.toFormat('yyyyMMdd')}`
        : tzid
          ? `;TZID=${timezone}:${written(d).toFormat("yyyyMMdd'T'HHmmss")}`
          : `:${utc(d)}`
    const uid =
      e.uid ??
      `${createHash('sha256')
        .update(JSON.stringify([e.title, e.start, e.end ?? null, e.duration_minutes ?? null, e.location ?? null]))
        .digest('hex')
        .slice(0, 32)}@ical-generate`
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(uid)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART${when(start)}`,
      `DTEND${when(end)}`,
      `SUMMARY:${escapeText(e.title)}`,
    )
    if (e.description) lines.push(`DESCRIPTION:${escapeText(e.description)}`)
    if (e.location) lines.push(`LOCATION:${escapeText(e.location)}`)
    if (e.url) lines.push(`URL:${e.url.replace(/[\r\n]/g, '')}`)
    lines.push('END:VEVENT')
  })
  lines.push('END:VCALENDAR')
  return {
    ics: lines.map(fold).join('\r\n') + '\r\n',
    events: events.length,
    content_type: 'text/calendar; charset=utf-8' as const,
    filename: 'events.ics',
  }
})
