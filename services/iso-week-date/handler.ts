import { handlerFor } from '../../runtime/sdk'
import { isLeap, isoWeek, isoWeekday, parseDate, weeksInYear, WEEKDAYS } from '../_lib/dates'
import manifest from './manifest'

export default handlerFor(manifest, ({ date }) => {
  const { y, m, date: dt } = parseDate('date', date)
  const jan1 = new Date(dt.getTime())
  jan1.setUTCMonth(0, 1)
  const ordinal = Math.round((dt.getTime() - jan1.getTime()) / 86_400_000) + 1
  const { weekYear, week } = isoWeek(dt)
  const wd = isoWeekday(dt)
  const days = isLeap(y) ? 366 : 365
  return {
    date,
    iso_week_date: `${String(weekYear).padStart(4, '0')}-W${String(week).padStart(2, '0')}-${wd}`,
    week_year: weekYear,
    week,
    weekday: wd,
    weekday_name: WEEKDAYS[wd - 1],
    ordinal_day: ordinal,
    ordinal_date: `${String(y).padStart(4, '0')}-${String(ordinal).padStart(3, '0')}`,
    quarter: Math.ceil(m / 3),
    days_in_year: days,
    days_remaining: days - ordinal,
    weeks_in_week_year: weeksInYear(weekYear),
    leap_year: isLeap(y),
  }
})
