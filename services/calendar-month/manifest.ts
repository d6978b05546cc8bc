import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'calendar-month',
  name: 'Calendar month',
  description:
    "The weeks of a month as rows of 7 day numbers (null outside the month), starting on Monday (default) or Sunday, like Python's calendar.monthcalendar; plus the weekday of the 1st, the day count and the leap-year flag. Proleptic Gregorian calendar, years 1-9999.",
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      year: t.Integer({ minimum: 1, maximum: 9999, description: 'Year.' }),
      month: t.Integer({ minimum: 1, maximum: 12, description: 'Month 1-12.' }),
      first_weekday: t.Optional(
        t.Union([t.Literal('monday'), t.Literal('sunday')], {
          default: 'monday',
          description:
            'First column of each week: monday (default) or sunday; "Monday", "Sun" and the like are accepted.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      week_start: 'first_weekday',
      week_starts_on: 'first_weekday',
      start_day: 'first_weekday',
      first_day: 'first_weekday',
      start: 'first_weekday',
      first_day_of_week: 'first_weekday',
    },
    values: { first_weekday: { mon: 'monday', sun: 'sunday', monday_start: 'monday', sunday_start: 'sunday' } },
  },
  output: t.Object({
    year: t.Integer({ description: 'The year.' }),
    month: t.Integer({ description: 'The month, 1-12.' }),
    month_name: t.String({ description: 'English month name.' }),
    first_weekday: t.Union([t.Literal('monday'), t.Literal('sunday')], {
      description: 'First column of each week row.',
    }),
    weekday_headers: t.Array(t.String(), { description: 'Three-letter English weekday names of the 7 columns.' }),
    weeks: t.Array(t.Array(t.Union([t.Integer(), t.Null()]), { minItems: 7, maxItems: 7 }), {
      description: 'Week rows (4-6) of 7 day numbers; null for days outside the month.',
    }),
    first_day_weekday: t.String({ description: 'English weekday name of the 1st.' }),
    days: t.Integer({ description: 'Number of days in the month (28-31).' }),
    leap_year: t.Boolean({ description: 'Whether the year is a Gregorian leap year.' }),
  }),
  examples: [
    {
      name: 'February 2024',
      input: { year: 2024, month: 2 },
      output: {
        year: 2024,
        month: 2,
        month_name: 'February',
        first_weekday: 'monday',
        weekday_headers: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
        weeks: [
          [null, null, null, 1, 2, 3, 4],
          [5, 6, 7, 8, 9, 10, 11],
          [12, 13, 14, 15, 16, 17, 18],
          [19, 20, 21, 22, 23, 24, 25],
          [26, 27, 28, 29, null, null, null],
        ],
        first_day_weekday: 'Thursday',
        days: 29,
        leap_year: true,
      },
    },
  ],
})
