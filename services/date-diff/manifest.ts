import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'date-diff',
  name: 'Date difference',
  description: 'Elapsed time from `start` to `end` (ISO-8601 dates or date-times; without an offset, UTC): total days, hours, minutes and seconds (fractional, negative when end is before start), whole weeks, a calendar breakdown in years/months/days, and business days — Monday to Friday dates in [start, end), i.e. start counted, end not (the numpy.busday_count convention), without holidays.',
  category: 'datetime',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      start: t.String({ maxLength: 64, description: 'Start date or date-time (ISO-8601).' }),
      end: t.String({ maxLength: 64, description: 'End date or date-time (ISO-8601).' }),
    },
    { additionalProperties: true },
  ),
  output: t.Object({
    days: t.Number(), hours: t.Number(), minutes: t.Number(), seconds: t.Number(), weeks: t.Integer({ description: 'Whole weeks (truncated toward zero).' }),
    calendar: t.Object({ years: t.Integer(), months: t.Integer(), days: t.Integer() }, { description: 'Calendar difference (sign of the whole span).' }),
    business_days: t.Integer({ description: 'Mon-Fri dates in [start, end); negative when end < start.' }),
  }),
  examples: [{ name: 'One week', input: { start: '2024-01-01', end: '2024-01-08' }, output: { days: 7, hours: 168, minutes: 10080, seconds: 604800, weeks: 1, calendar: { years: 0, months: 0, days: 7 }, business_days: 5 } }],
})
