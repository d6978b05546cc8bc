import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'calendar-month',
  name: 'Calendar month',
  description: 'The weeks of a month as rows of 7 day numbers (null outside the month), starting on Monday (default) or Sunday, like Python\'s calendar.monthcalendar; plus the weekday of the 1st, the day count and the leap-year flag. Proleptic Gregorian calendar, years 1-9999.',
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      year: t.Integer({ minimum: 1, maximum: 9999, description: 'Year.' }),
      month: t.Integer({ minimum: 1, maximum: 12, description: 'Month 1-12.' }),
      first_weekday: t.Optional(t.Union([t.Literal('monday'), t.Literal('sunday')], { default: 'monday', description: 'First column of each week.' })),
    },
    { additionalProperties: true },
  ),
  output: t.Object({
    year: t.Integer(), month: t.Integer(), month_name: t.String(), first_weekday: t.String(),
    weekday_headers: t.Array(t.String()),
    weeks: t.Array(t.Array(t.Union([t.Integer(), t.Null()]))),
    first_day_weekday: t.String({ description: 'Weekday of the 1st.' }),
    days: t.Integer(), leap_year: t.Boolean(),
  }),
  examples: [{ name: 'February 2024', input: { year: 2024, month: 2 } }],
})
