import { invalid } from '../../runtime/sdk'

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
export const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
export const daysInMonth = (y: number, m: number) =>
  [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]

/**
 * The years the date services accept: ISO 8601's four-digit years without expansion (RFC 5545's too), 0001-9999.
 * Beyond them calendar arithmetic leaves the range of JavaScript dates (±8.64e15 ms) and iCalendar cannot write
 * them, so a date outside is the caller's to fix (422), never a 500 or an answer with nulls in it.
 */
export const FIRST_YEAR = 1
export const LAST_YEAR = 9999

/** Throws a 422 on `field` unless every year in `years` lies in FIRST_YEAR..LAST_YEAR. */
export function checkYears(field: string, ...years: number[]): void {
  for (const y of years)
    if (!(y >= FIRST_YEAR && y <= LAST_YEAR))
      throw invalid(field, `must fall within the years 0001 to 9999 (year ${Number.isFinite(y) ? y : 'out of range'})`)
}

/** Parses YYYY-MM-DD strictly (real calendar dates only) into a UTC Date. */
export function parseDate(field: string, s: string): { y: number; m: number; d: number; date: Date } {
  const mt = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!mt) throw invalid(field, 'must be a date YYYY-MM-DD')
  const [y, m, d] = [Number(mt[1]), Number(mt[2]), Number(mt[3])]
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m))
    throw invalid(field, `${s} is not a real calendar date`)
  const date = new Date(Date.UTC(2000, m - 1, d))
  date.setUTCFullYear(y)
  return { y, m, d, date }
}

/** ISO weekday, 1 = Monday ... 7 = Sunday. */
export const isoWeekday = (date: Date) => ((date.getUTCDay() + 6) % 7) + 1

/** ISO 8601 week-year and week number. */
export function isoWeek(date: Date): { weekYear: number; week: number } {
  const thursday = new Date(date.getTime() + (4 - isoWeekday(date)) * 86_400_000)
  const weekYear = thursday.getUTCFullYear()
  const jan1 = new Date(Date.UTC(2000, 0, 1))
  jan1.setUTCFullYear(weekYear)
  return { weekYear, week: Math.floor((thursday.getTime() - jan1.getTime()) / 86_400_000 / 7) + 1 }
}

export const weeksInYear = (y: number) => {
  const dec28 = new Date(Date.UTC(2000, 11, 28))
  dec28.setUTCFullYear(y)
  return isoWeek(dec28).week
}
