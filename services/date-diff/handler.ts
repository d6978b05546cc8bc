import { DateTime } from 'luxon'
import { handlerFor, invalid } from '../../runtime/sdk'
import { checkYears } from '../_lib/dates'
import manifest from './manifest'

const parse = (field: string, s: string) => {
  const d = DateTime.fromISO(s.trim(), { zone: 'utc', setZone: true })
  if (!d.isValid)
    throw invalid(field, `is not an ISO-8601 date or date-time (${d.invalidExplanation ?? d.invalidReason})`)
  checkYears(field, d.year)
  return d
}

/** Mon-Fri calendar dates in [a, b) by whole weeks plus a remainder (O(1) for any span). */
function businessDays(a: DateTime, b: DateTime): number {
  if (b < a) return -businessDays(b, a)
  const start = a.toUTC().startOf('day'),
    end = b.toUTC().startOf('day')
  const total = Math.round(end.diff(start, 'days').days)
  let count = Math.floor(total / 7) * 5
  for (let i = 0, wd = start.weekday; i < total % 7; i++, wd = (wd % 7) + 1) if (wd <= 5) count++
  return count
}

export default handlerFor(manifest, ({ start, end }) => {
  const a = parse('start', start),
    b = parse('end', end)
  const ms = b.toMillis() - a.toMillis()
  const neg = ms < 0
  const cal = (neg ? a.diff(b, ['years', 'months', 'days']) : b.diff(a, ['years', 'months', 'days'])).toObject()
  const sign = neg ? -1 : 1
  return {
    days: ms / 86_400_000,
    hours: ms / 3_600_000,
    minutes: ms / 60_000,
    seconds: ms / 1000,
    weeks: Math.trunc(ms / 604_800_000),
    calendar: {
      years: sign * (cal.years ?? 0),
      months: sign * (cal.months ?? 0),
      days: sign * Math.floor(cal.days ?? 0),
    },
    business_days: businessDays(a, b),
  }
})
