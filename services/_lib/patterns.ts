/** Patterns shared by pii-redact and entity-extract (documented in their manifests). */
export const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g
export const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]]/g
export const IPV4 = /\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\b/g
export const IPV6 = /(?<![:\w])(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}(?![:\w])|(?<![:\w])(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,5})?(?![:\w])/g
export const SSN = /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g
/** International (+CC ...) or North American ((555) 123-4567, 555-123-4567) phone numbers. */
export const PHONE = /(?<![\w+])(?:\+\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{1,4}(?:[\s.-]?\d{2,4}){2,4}|\(\d{3}\)\s?\d{3}[\s.-]\d{4}|\b\d{3}[.-]\d{3}[.-]\d{4})\b/g
/** 13-19 digits, optionally grouped by spaces or hyphens; callers keep only Luhn-valid ones. */
export const CARD = /\b\d(?:[ -]?\d){12,18}\b/g
export const HASHTAG = /(?<![\w#])#[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*/gu
export const MENTION = /(?<![\w@.])@[A-Za-z0-9_]{1,30}\b(?!\.[A-Za-z])/g
export const MONEY = /(?:[$€£¥]\s?\d{1,3}(?:[,\s]\d{3})*(?:\.\d+)?|\d{1,3}(?:,\d{3})*(?:\.\d+)?\s?(?:USD|EUR|GBP|JPY|dollars|euros))\b/g
export const DATE = /\b(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}\/\d{1,2}\/\d{2,4}|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]* \d{4})\b/g

export function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2) { d *= 2; if (d > 9) d -= 9 }
    sum += d
  }
  return digits.length > 0 && sum % 10 === 0
}

export interface Found { type: string; value: string; start: number; end: number }

/** All matches of `re` in `text` as spans. */
export function findAll(text: string, re: RegExp, type: string, keep: (v: string) => boolean = () => true): Found[] {
  const out: Found[] = []
  for (const m of text.matchAll(new RegExp(re.source, re.flags))) if (keep(m[0])) out.push({ type, value: m[0], start: m.index!, end: m.index! + m[0].length })
  return out
}
