import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'timestamp-convert',
  name: 'Timestamp converter',
  description:
    'Converts a Unix epoch (seconds or milliseconds) or an ISO-8601 date-time into every common form: epoch seconds and milliseconds, ISO-8601 in UTC and in a chosen IANA time zone (with its UTC offset), weekday, and RFC 2822. A numeric value with |value| ≥ 1e11 is read as milliseconds (dates after 5138 AD in seconds are not supported), unless `unit` says otherwise. ISO strings without an offset are read as UTC.',
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      value: t.Union([t.Number(), t.String({ maxLength: 64 })], {
        description: 'Unix epoch (number) or ISO-8601 string.',
      }),
      unit: t.Optional(
        t.Union([t.Literal('auto'), t.Literal('s'), t.Literal('ms')], {
          default: 'auto',
          description: 'Unit of a numeric value.',
        }),
      ),
      to: t.Optional(
        t.Union([t.Literal('all'), t.Literal('iso'), t.Literal('unix'), t.Literal('unix_ms')], {
          default: 'all',
          description: 'Which form `result` holds; every form is always returned too.',
        }),
      ),
      timezone: t.Optional(t.String({ maxLength: 64, default: 'UTC', description: 'IANA zone, e.g. Europe/Paris.' })),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: { timestamp: 'value', time: 'value', date: 'value', tz: 'timezone', from: 'unit' },
    values: {
      to: {
        iso8601: 'iso',
        iso_8601: 'iso',
        isostring: 'iso',
        epoch: 'unix',
        unix_s: 'unix',
        seconds: 'unix',
        s: 'unix',
        ms: 'unix_ms',
        milliseconds: 'unix_ms',
        epoch_ms: 'unix_ms',
        unixms: 'unix_ms',
      },
      unit: { seconds: 's', sec: 's', unix: 's', epoch: 's', milliseconds: 'ms', millis: 'ms', unix_ms: 'ms' },
    },
  },
  output: t.Object({
    result: t.Union([t.String(), t.Number()], {
      description:
        'The form asked for by `to`: ISO-8601 in `timezone` for "all" and "iso", epoch seconds for "unix", epoch milliseconds for "unix_ms".',
    }),
    unix: t.Number({ description: 'Unix epoch seconds (fractional when the instant has milliseconds).' }),
    unix_ms: t.Integer({ description: 'Unix epoch milliseconds.' }),
    iso_utc: t.String({ description: 'ISO-8601 in UTC with milliseconds, e.g. 2023-11-14T22:13:20.000Z.' }),
    iso_local: t.String({ description: 'ISO-8601 in `timezone` with its offset, e.g. 2023-11-14T23:13:20.000+01:00.' }),
    timezone: t.String({ description: 'The IANA zone used.' }),
    utc_offset: t.String({ description: 'UTC offset of `timezone` at that instant, ±HH:MM.' }),
    utc_offset_minutes: t.Number({
      description:
        'The same offset in minutes (east of UTC positive); fractional for the local mean time some zones used before standard time (Pacific/Kiritimati in 1900: -629.33, i.e. -10:29:20).',
    }),
    weekday: t.String({ description: 'English weekday name in `timezone`, e.g. Tuesday.' }),
    rfc2822: t.String({ description: 'RFC 2822 date in `timezone`, e.g. Tue, 14 Nov 2023 23:13:20 +0100.' }),
    detected_unit: t.Union([t.Literal('s'), t.Literal('ms'), t.Literal('iso')], {
      description: 'How `value` was read: epoch seconds, epoch milliseconds or an ISO-8601 string.',
    }),
  }),
  examples: [
    {
      name: 'Epoch seconds to Paris time',
      input: { value: 1700000000, timezone: 'Europe/Paris' },
      output: {
        result: '2023-11-14T23:13:20.000+01:00',
        unix: 1700000000,
        unix_ms: 1700000000000,
        iso_utc: '2023-11-14T22:13:20.000Z',
        iso_local: '2023-11-14T23:13:20.000+01:00',
        timezone: 'Europe/Paris',
        utc_offset: '+01:00',
        utc_offset_minutes: 60,
        weekday: 'Tuesday',
        rfc2822: 'Tue, 14 Nov 2023 23:13:20 +0100',
        detected_unit: 's',
      },
    },
  ],
})
