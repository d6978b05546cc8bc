/** ECB publication schedule: euro reference rates about 16:00 CET (Frankfurt local time) on TARGET working days. */

const DAY = 86_400_000

/** Gregorian Easter Sunday (Meeus/Jones/Butcher), as a UTC midnight timestamp. */
export function easterSunday(year: number): number {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return Date.UTC(year, month - 1, day)
}

/** TARGET2 closing days: weekends, 1 Jan, Good Friday, Easter Monday, 1 May, 25 and 26 Dec. `day` is UTC midnight. */
export function isTargetWorkingDay(day: number): boolean {
  const d = new Date(day)
  const wd = d.getUTCDay()
  if (wd === 0 || wd === 6) return false
  const m = d.getUTCMonth() + 1
  const dd = d.getUTCDate()
  if ((m === 1 && dd === 1) || (m === 5 && dd === 1) || (m === 12 && (dd === 25 || dd === 26))) return false
  const easter = easterSunday(d.getUTCFullYear())
  return day !== easter - 2 * DAY && day !== easter + DAY
}

const berlinParts = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})

/** Offset of Europe/Berlin from UTC at an instant, in ms (+1 h CET, +2 h CEST). */
function berlinOffset(at: number): number {
  const p = Object.fromEntries(berlinParts.formatToParts(new Date(at)).map((x) => [x.type, x.value]))
  const local = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second)
  return local - Math.floor(at / 1000) * 1000
}

/** The Frankfurt calendar day (as UTC midnight) of an instant. */
function berlinDay(at: number): number {
  const local = at + berlinOffset(at)
  return Math.floor(local / DAY) * DAY
}

/** 16:00 Frankfurt time on a calendar day (UTC midnight), as an instant. */
export function publicationInstant(day: number): number {
  const guess = day + 15 * 3600_000
  return day + 16 * 3600_000 - berlinOffset(guess)
}

/** The first publication strictly after `now`. */
export function nextPublication(now: number): number {
  for (let day = berlinDay(now); ; day += DAY) {
    if (!isTargetWorkingDay(day)) continue
    const at = publicationInstant(day)
    if (at > now) return at
  }
}

/** The latest publication at or before `now`. */
export function lastPublication(now: number): number {
  for (let day = berlinDay(now); ; day -= DAY) {
    if (!isTargetWorkingDay(day)) continue
    const at = publicationInstant(day)
    if (at <= now) return at
  }
}

/** Grace after 16:00 during which Frankfurter may still serve the previous day: cache only 5 minutes. */
export const GRACE_MS = 60 * 60 * 1000
export const GRACE_TTL_MS = 5 * 60 * 1000

/** How long a rate fetched at `now` stays valid: until the next publication, or 5 min in the hour after one. */
export function fxTtl(now: number): number {
  if (now - lastPublication(now) < GRACE_MS) return GRACE_TTL_MS
  return Math.max(60_000, nextPublication(now) - now)
}
