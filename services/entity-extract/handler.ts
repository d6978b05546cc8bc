import { handlerFor } from '../../runtime/sdk'
import { DATE, EMAIL, findAll, HASHTAG, IPV4, MENTION, MONEY, PHONE, URL_RE } from '../_lib/patterns'
import manifest from './manifest'

export default handlerFor(manifest, ({ text }) => {
  const span = (re: RegExp) => findAll(text, re, '').map(({ value, start, end }) => ({ value, start, end }))
  const urls = span(URL_RE)
  const inUrl = (s: number) => urls.some((u) => s >= u.start && s < u.end)
  const emails = span(EMAIL)
  const inEmail = (s: number) => emails.some((u) => s >= u.start && s < u.end)
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
