import { defineService, flat, t } from '../../runtime/sdk'

const Event = t.Object(
  {
    title: t.String({ minLength: 1, maxLength: 500, description: 'Event title (SUMMARY).' }),
    start: t.String({
      maxLength: 40,
      description: 'ISO date (all-day) or date-time; without an offset it is UTC unless `timezone` is set.',
    }),
    end: t.Optional(t.String({ maxLength: 40, description: 'ISO end (exclusive for all-day events).' })),
    duration_minutes: t.Optional(
      t.Integer({
        minimum: 1,
        maximum: 525_600,
        description: 'Used when end is absent (default 60, or 1 day for all-day).',
      }),
    ),
    all_day: t.Optional(t.Boolean({ description: 'Date-only event; inferred from a date-only start.' })),
    description: t.Optional(
      t.String({ maxLength: 10_000, description: 'Longer text (DESCRIPTION); newlines kept as \\n.' }),
    ),
    location: t.Optional(t.String({ maxLength: 1000, description: 'Place (LOCATION).' })),
    url: t.Optional(
      t.String({ maxLength: 2000, description: 'Link for the event (URL property; line breaks removed).' }),
    ),
    uid: t.Optional(t.String({ maxLength: 255, description: 'Stable id; default derived from the event content.' })),
  },
  { additionalProperties: true },
)

export default defineService({
  slug: 'ical-generate',
  name: 'iCalendar generator',
  description:
    'Builds an RFC 5545 iCalendar (.ics) file from up to 100 events: VCALENDAR with VERSION 2.0 and PRODID, one VEVENT each (UID, DTSTAMP, DTSTART, DTEND, SUMMARY, DESCRIPTION, LOCATION, URL), TEXT values escaped (\\\\ ; , newline; other control characters removed), lines folded at 75 octets, CRLF line endings. Date-times are written in UTC (…Z) unless a `timezone` is given, then as local times with TZID (the zone is named, no VTIMEZONE block is embedded). DTSTAMP is the call time; UIDs default to a SHA-256 of the event content.',
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      events: t.Array(Event, { minItems: 1, maxItems: 100, description: 'The events.' }),
      calendar_name: t.Optional(t.String({ maxLength: 200, description: 'X-WR-CALNAME.' })),
      timezone: t.Optional(
        t.String({ maxLength: 64, description: 'IANA zone for times without an offset, written with TZID.' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      event: 'events',
      calendar: 'calendar_name',
      name: 'calendar_name',
      title: 'calendar_name',
      tz: 'timezone',
      time_zone: 'timezone',
      'events[].summary': 'title',
      'events[].name': 'title',
      'events[].start_time': 'start',
      'events[].starts_at': 'start',
      'events[].dtstart': 'start',
      'events[].end_time': 'end',
      'events[].ends_at': 'end',
      'events[].dtend': 'end',
      'events[].duration': 'duration_minutes',
      'events[].minutes': 'duration_minutes',
      'events[].allday': 'all_day',
      'events[].link': 'url',
      'events[].place': 'location',
      'events[].details': 'description',
      'events[].notes': 'description',
    },
  },
  output: t.Object({
    ics: t.String({ description: 'The iCalendar text: CRLF line endings, lines folded at 75 octets.' }),
    events: t.Integer({ description: 'Number of VEVENTs written.' }),
    content_type: t.Literal('text/calendar; charset=utf-8', { description: 'Media type to serve the file with.' }),
    filename: t.String({ description: 'Suggested file name.' }),
  }),
  examples: [
    {
      name: 'One meeting',
      input: { events: [{ title: 'Standup', start: '2024-05-01T09:00:00Z', duration_minutes: 15 }] },
      output: {
        ics: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Agent Utility API//ical-generate//EN\r\nCALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\nBEGIN:VEVENT\r\nUID:88bc51fd029312af4ae14d8c386a30cb@ical-generate\r\nDTSTAMP:20240501T120000Z\r\nDTSTART:20240501T090000Z\r\nDTEND:20240501T091500Z\r\nSUMMARY:Standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
        events: 1,
        content_type: 'text/calendar; charset=utf-8',
        filename: 'events.ics',
      },
    },
  ],
})
