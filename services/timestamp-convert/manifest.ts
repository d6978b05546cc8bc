import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'timestamp-convert',
  name: 'Timestamp converter',
  description: 'Converts a Unix epoch (seconds or milliseconds) or an ISO-8601 date-time into every common form: epoch seconds and milliseconds, ISO-8601 in UTC and in a chosen IANA time zone (with its UTC offset), weekday, and RFC 2822. A numeric value with |value| ≥ 1e11 is read as milliseconds (dates after 5138 AD in seconds are not supported), unless `unit` says otherwise. ISO strings without an offset are read as UTC.',
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      value: t.Union([t.Number(), t.String({ maxLength: 64 })], { description: 'Unix epoch (number) or ISO-8601 string.' }),
      unit: t.Optional(t.Union([t.Literal('auto'), t.Literal('s'), t.Literal('ms')], { default: 'auto', description: 'Unit of a numeric value.' })),
      to: t.Optional(t.Union([t.Literal('all'), t.Literal('iso'), t.Literal('unix'), t.Literal('unix_ms')], { default: 'all', description: 'Which form `result` holds; every form is always returned too.' })),
      timezone: t.Optional(t.String({ maxLength: 64, default: 'UTC', description: 'IANA zone, e.g. Europe/Paris.' })),
    },
    { additionalProperties: true },
  ),
  output: t.Object({
    result: t.Union([t.String(), t.Number()], { description: 'The form asked for by `to` (ISO in the zone for all/iso).' }),
    unix: t.Number({ description: 'Seconds (fractional when the input had milliseconds).' }),
    unix_ms: t.Integer(),
    iso_utc: t.String(),
    iso_local: t.String({ description: 'ISO-8601 in `timezone` with offset.' }),
    timezone: t.String(),
    utc_offset: t.String({ description: '+HH:MM' }),
    utc_offset_minutes: t.Integer(),
    weekday: t.String(),
    rfc2822: t.String(),
    detected_unit: t.String({ description: 's, ms or iso' }),
  }),
  examples: [{ name: 'Epoch seconds to Paris time', input: { value: 1700000000, timezone: 'Europe/Paris' } }],
})
