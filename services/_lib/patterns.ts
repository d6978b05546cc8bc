/** Patterns shared by pii-redact and entity-extract (documented in their manifests). */
import { isIPv6 } from 'node:net'

export const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g
/** http(s) URLs; a trailing ) is kept only when it closes a ( inside the URL (see urlSpans). */
export const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]]/g
/** Dotted quads of 0-255 without leading zeros, not part of a longer dotted number (1.2.3.4.5) or version. */
export const IPV4 =
  /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?!\d|\.\d)/g
/** IPv6 candidates (hex groups with at least two colons, optionally an embedded IPv4); kept when node:net isIPv6 accepts them. */
export const IPV6 =
  /(?<![:\w.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}|[0-9A-Fa-f]{1,4})?(?![:\w]|\.\d)/g
export const isIPv6Address = (v: string) => /[0-9A-Fa-f]/.test(v) && isIPv6(v)
/** US SSN AAA-GG-SSSS (dashes or spaces, the same both times); areas 000, 666 and 900-999, group 00 and serial 0000 are never issued. */
export const SSN = /\b(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}\b/g
/** International (+CC ...) or North American ((555) 123-4567, 555-123-4567, 555.123.4567, 1-800-555-0199) phone numbers. */
export const PHONE =
  /(?<![\w+])(?:\+\d{1,3}[\s.-]?(?:\(\d{1,4}\)[\s.-]?)?\d{1,4}(?:[\s.-]?\d{2,4}){2,4}|(?:1[ .-]?)?(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4})\b/g
/** 13-19 digits, optionally grouped by single spaces or hyphens; callers keep only Luhn-valid ones (see cardSpans). */
export const CARD = /\b\d(?:[ -]?\d){12,18}\b/g
export const HASHTAG = /(?<![\w#])#[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*/gu
export const MENTION = /(?<![\w@.])@[A-Za-z0-9_]{1,30}\b(?!\.[A-Za-z])/g
const AMOUNT = String.raw`(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`
const CODES = 'USD|EUR|GBP|JPY|CHF|CAD|AUD|CNY|INR'
/** $12.50, € 5, £3.5m, USD 40, 1,200 EUR, 30 dollars. */
export const MONEY = new RegExp(
  String.raw`(?:[$€£¥₹]\s?|\b(?:${CODES})\s?)${AMOUNT}(?:[kKmMbB]n?\b|\b)|(?<![\d.,])${AMOUNT}\s?(?:${CODES}|dollars?|euros?|pounds?|cents?)\b`,
  'g',
)
export const DATE =
  /\b(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}\/\d{1,2}\/\d{2,4}|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]* \d{4})\b/g

export function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return digits.length > 0 && sum % 10 === 0
}

export interface Found {
  type: string
  value: string
  start: number
  end: number
}

/** All matches of `re` in `text` as spans. */
export function findAll(text: string, re: RegExp, type: string, keep: (v: string) => boolean = () => true): Found[] {
  const out: Found[] = []
  for (const m of text.matchAll(new RegExp(re.source, re.flags)))
    if (keep(m[0])) out.push({ type, value: m[0], start: m.index!, end: m.index! + m[0].length })
  return out
}

/** URLs, with a final ")" kept when the URL opened a "(" (https://en.wikipedia.org/wiki/Bun_(software)). */
export function urlSpans(text: string, type = 'url'): Found[] {
  return findAll(text, URL_RE, type).map((f) => {
    let { end } = f
    const count = (c: string) => text.slice(f.start, end).split(c).length - 1
    while (text[end] === ')' && count('(') > count(')')) end++
    return { ...f, value: text.slice(f.start, end), end }
  })
}

/**
 * Card numbers: each 13-19 digit candidate that fails Luhn is searched for the longest run of whole digit groups
 * (13-19 digits, earliest first) that passes, so a valid number followed by another group still counts.
 */
export function cardSpans(text: string, type = 'card'): Found[] {
  const out: Found[] = []
  for (const f of findAll(text, CARD, type)) {
    const groups = [...f.value.matchAll(/\d+/g)].map((m) => ({
      s: m.index!,
      e: m.index! + m[0].length,
      n: m[0].length,
    }))
    let best: [number, number] | null = null
    for (let i = 0; i < groups.length; i++) {
      let n = 0
      for (let j = i; j < groups.length && n < 19; j++) {
        n += groups[j].n
        if (n < 13 || n > 19) continue
        const v = f.value.slice(groups[i].s, groups[j].e)
        if (luhn(v.replace(/\D/g, '')) && (!best || groups[j].e - groups[i].s > best[1] - best[0]))
          best = [groups[i].s, groups[j].e]
      }
    }
    if (best)
      out.push({ type, value: f.value.slice(best[0], best[1]), start: f.start + best[0], end: f.start + best[1] })
  }
  return out
}

/** IPv4 and IPv6 addresses (IPv6 checked by node:net; an IPv4 inside an IPv6 belongs to the IPv6). */
export function ipSpans(text: string, type = 'ip'): Found[] {
  return [...findAll(text, IPV4, type), ...findAll(text, IPV6, type, isIPv6Address)]
}
