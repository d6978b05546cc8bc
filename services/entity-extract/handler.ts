import { handlerFor } from '../../runtime/sdk'
import { DATE, EMAIL, findAll, HASHTAG, IPV4, MENTION, MONEY, PHONE, urlSpans } from '../_lib/patterns'
import manifest from './manifest'

interface Span {
  value: string
  start: number
  end: number
}

/** Whether `at` falls inside one of `spans` (sorted, non-overlapping): binary search. */
function within(spans: Span[]) {
  return (at: number) => {
    let lo = 0,
      hi = spans.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (spans[mid].end <= at) lo = mid + 1
      else if (spans[mid].start > at) hi = mid - 1
      else return true
    }
    return false
  }
}

export default handlerFor(manifest, ({ text }) => {
  const span = (re: RegExp): Span[] => findAll(text, re, '').map(({ value, start, end }) => ({ value, start, end }))
  const urls = urlSpans(text).map(({ value, start, end }) => ({ value, start, end }))
  const inUrl = within(urls)
  const emails = span(EMAIL)
  const inEmail = within(emails)
  const out = {
    emails,
    urls,
    ipv4: span(IPV4).filter((x) => !inUrl(x.start)),
    phones: span(PHONE).filter((x) => !inUrl(x.start)),
    hashtags: span(HASHTAG).filter((x) => !inUrl(x.start)),
    mentions: span(MENTION).filter((x) => !inUrl(x.start) && !inEmail(x.start)),
    money: span(MONEY),
    dates: span(DATE).filter((x) => !inUrl(x.start)),
  }
  return { ...out, counts: Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.length])) } as never
})
