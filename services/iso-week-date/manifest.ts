import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'iso-week-date',
  name: 'ISO week date',
  description:
    "ISO 8601 week date of a calendar date (weeks start on Monday; week 1 contains the year's first Thursday, so the week-year can differ from the calendar year), plus ordinal day, quarter, days remaining in the year and leap-year flag. Proleptic Gregorian calendar, years 1-9999.",
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      date: t.String({
        maxLength: 10,
        pattern: '^\\d{4}-\\d{2}-\\d{2}$',
        description: 'A calendar date YYYY-MM-DD (years 0001-9999).',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { day: 'date', value: 'date' } },
  output: t.Object({
    date: t.String({ description: 'The input date.' }),
    iso_week_date: t.String({ description: 'ISO 8601 week date YYYY-Www-D, e.g. 2020-W53-7.' }),
    week_year: t.Integer({
      description: 'ISO week-numbering year (can differ from the calendar year near 1 January).',
    }),
    week: t.Integer({ minimum: 1, maximum: 53, description: 'ISO week number 1-53.' }),
    weekday: t.Integer({ minimum: 1, maximum: 7, description: 'ISO weekday, 1 = Monday … 7 = Sunday.' }),
    weekday_name: t.String({ description: 'English weekday name.' }),
    ordinal_day: t.Integer({ minimum: 1, maximum: 366, description: 'Day of the calendar year, 1-366.' }),
    ordinal_date: t.String({ description: 'ISO 8601 ordinal date YYYY-DDD.' }),
    quarter: t.Integer({ minimum: 1, maximum: 4, description: 'Calendar quarter 1-4.' }),
    days_in_year: t.Integer({ description: '365 or 366.' }),
    days_remaining: t.Integer({ description: 'Days left in the calendar year after this date (0 on 31 December).' }),
    weeks_in_week_year: t.Integer({ description: 'Number of ISO weeks (52 or 53) in week_year.' }),
    leap_year: t.Boolean({ description: 'Whether the calendar year is a leap year.' }),
  }),
  examples: [
    {
      name: 'Week 53',
      input: { date: '2021-01-03' },
      output: {
        date: '2021-01-03',
        iso_week_date: '2020-W53-7',
        week_year: 2020,
        week: 53,
        weekday: 7,
        weekday_name: 'Sunday',
        ordinal_day: 3,
        ordinal_date: '2021-003',
        quarter: 1,
        days_in_year: 365,
        days_remaining: 362,
        weeks_in_week_year: 53,
        leap_year: false,
      },
    },
  ],
})
