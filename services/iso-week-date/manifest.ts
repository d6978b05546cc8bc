import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'iso-week-date',
  name: 'ISO week date',
  description: 'ISO 8601 week date of a calendar date (weeks start on Monday; week 1 contains the year\'s first Thursday, so the week-year can differ from the calendar year), plus ordinal day, quarter, days remaining in the year and leap-year flag. Proleptic Gregorian calendar, years 1-9999.',
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({ date: t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A calendar date YYYY-MM-DD.' }) }, { additionalProperties: true }),
  output: t.Object({
    date: t.String(),
    iso_week_date: t.String({ description: 'YYYY-Www-D' }),
    week_year: t.Integer(), week: t.Integer({ minimum: 1, maximum: 53 }), weekday: t.Integer({ minimum: 1, maximum: 7, description: '1 = Monday' }), weekday_name: t.String(),
    ordinal_day: t.Integer(), ordinal_date: t.String({ description: 'YYYY-DDD' }), quarter: t.Integer(), days_in_year: t.Integer(), days_remaining: t.Integer(), weeks_in_week_year: t.Integer(), leap_year: t.Boolean(),
  }),
  examples: [{ name: 'Week 53', input: { date: '2021-01-03' }, output: { date: '2021-01-03', iso_week_date: '2020-W53-7', week_year: 2020, week: 53, weekday: 7, weekday_name: 'Sunday', ordinal_day: 3, ordinal_date: '2021-003', quarter: 1, days_in_year: 365, days_remaining: 362, weeks_in_week_year: 53, leap_year: false } }],
})
