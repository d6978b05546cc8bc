import { handlerFor } from '../../runtime/sdk'
import { daysInMonth, isLeap, isoWeekday, WEEKDAYS } from '../_lib/dates'
import manifest from './manifest'

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

export default handlerFor(manifest, ({ year, month, first_weekday = 'monday' }) => {
  const first = new Date(Date.UTC(2000, month - 1, 1))
  first.setUTCFullYear(year)
  const wd = isoWeekday(first)
  const offset = first_weekday === 'monday' ? wd - 1 : wd % 7
  const days = daysInMonth(year, month)
  const cells: Array<number | null> = [...Array(offset).fill(null), ...Array.from({ length: days }, (_, i) => i + 1)]
  while (cells.length % 7) cells.push(null)
  const weeks = Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7))
  const headers = first_weekday === 'monday' ? WEEKDAYS : [WEEKDAYS[6], ...WEEKDAYS.slice(0, 6)]
  return {
    year,
    month,
    month_name: MONTHS[month - 1],
    first_weekday,
    weekday_headers: headers.map((d) => d.slice(0, 3)),
    weeks,
    first_day_weekday: WEEKDAYS[wd - 1],
    days,
    leap_year: isLeap(year),
  }
})
