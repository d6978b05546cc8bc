import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'date-diff',
  name: 'Date difference',
  description:
    'Elapsed time from `start` to `end` (ISO-8601 dates or date-times; without an offset, UTC): total days, hours, minutes and seconds (fractional, negative when end is before start), whole weeks, a calendar breakdown in years/months/days, and business days — Monday to Friday dates in [start, end), i.e. start counted, end not (the numpy.busday_count convention), without holidays.',
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      start: t.String({ maxLength: 64, description: 'Start date or date-time (ISO-8601, years 0001-9999).' }),
      end: t.String({ maxLength: 64, description: 'End date or date-time (ISO-8601, years 0001-9999).' }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { from: 'start', to: 'end', start_date: 'start', end_date: 'end', date1: 'start', date2: 'end' } },
  output: t.Object({
    days: t.Number({ description: 'Elapsed time in days (86,400 s each; fractional; negative when end < start).' }),
    hours: t.Number({ description: 'Elapsed time in hours (fractional, signed).' }),
    minutes: t.Number({ description: 'Elapsed time in minutes (fractional, signed).' }),
    seconds: t.Number({ description: 'Elapsed time in seconds (milliseconds as fractions, signed).' }),
    weeks: t.Integer({ description: 'Whole weeks (truncated toward zero).' }),
    calendar: t.Object(
      {
        years: t.Integer({ description: 'Whole calendar years.' }),
        months: t.Integer({ description: 'Whole months after the years.' }),
        days: t.Integer({ description: 'Whole days after the months.' }),
      },
      { description: 'Calendar difference in years/months/days, all with the sign of the whole span.' },
    ),
    business_days: t.Integer({
      description:
        'Monday-Friday dates in [start, end): start counted, end not; no holidays; negative when end < start.',
    }),
  }),
  examples: [
    {
      name: 'One week',
      input: { start: '2024-01-01', end: '2024-01-08' },
      output: {
        days: 7,
        hours: 168,
        minutes: 10080,
        seconds: 604800,
        weeks: 1,
        calendar: { years: 0, months: 0, days: 7 },
        business_days: 5,
      },
    },
  ],
})
