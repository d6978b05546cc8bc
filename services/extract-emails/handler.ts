import {
  findPhoneNumbersInText,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/max'
import { handlerFor, invalid } from '../../runtime/sdk'
import { fetchOk, HTML_TYPES, htmlDocument, htmlToPlain, requireUrl } from '../_lib/web-page'
import manifest from './manifest'

type Source = 'mailto' | 'text' | 'cloudflare' | 'tel'
const MAX_EMAILS = 200
const MAX_PHONES = 200
const EMAIL = /[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}/g
/** Look-alikes of e-mail addresses: retina image names and asset references (logo@2x.png). */
const FILE_TLD = /\.(png|jpe?g|gif|webp|svg|css|js|avif|ico|bmp|tiff?)$/i

function normalEmail(s: string): string | undefined {
  const v = s
    .trim()
    .replace(/^[._%+-]+/, '')
    .replace(/\.+$/, '')
  const at = v.lastIndexOf('@')
  if (at < 1) return undefined
  const local = v.slice(0, at)
  const domain = v.slice(at + 1).toLowerCase()
  if (FILE_TLD.test(domain) || local.length > 64 || domain.length > 253 || local.includes('..')) return undefined
  return `${local}@${domain}`
}

/** Cloudflare email protection: the first byte is the XOR key of the rest (hex). */
export function decodeCfEmail(hex: string): string | undefined {
  if (!/^(?:[0-9a-f]{2}){2,}$/i.test(hex)) return undefined
  const key = parseInt(hex.slice(0, 2), 16)
  let out = ''
  for (let i = 2; i < hex.length; i += 2) out += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16) ^ key)
  return out
}

export function findContacts(html: string, defaultCountry?: CountryCode, includePhones = true) {
  const doc = htmlDocument(html)
  const emails = new Map<string, { email: string; sources: Set<Source>; count: number }>()
  const addEmail = (raw: string, src: Source) => {
    const e = normalEmail(raw)
    if (!e) return
    const k = e.toLowerCase()
    const hit = emails.get(k) ?? { email: e, sources: new Set<Source>(), count: 0 }
    hit.sources.add(src)
    hit.count++
    emails.set(k, hit)
  }
  const phones = new Map<
    string,
    {
      number: string
      e164: string | null
      international: string | null
      country: string | null
      type: string | null
      valid: boolean
      sources: Set<Source>
    }
  >()
  const addPhone = (raw: string, parsed: PhoneNumber | undefined, src: Source) => {
    const key = parsed?.number ?? `raw:${raw.replace(/[^\d+]/g, '')}`
    const hit = phones.get(key) ?? {
      number: raw.trim(),
      e164: parsed?.number ?? null,
      international: parsed?.formatInternational() ?? null,
      country: parsed?.country ?? null,
      type: parsed?.getType() ?? null,
      valid: parsed?.isValid() ?? false,
      sources: new Set<Source>(),
    }
    hit.sources.add(src)
    phones.set(key, hit)
  }

  for (const a of Array.from(doc.querySelectorAll('a[href]'))) {
    const href = (a.getAttribute('href') ?? '').trim()
    if (/^mailto:/i.test(href)) {
      let v = href.slice(7).split('?')[0]
      try {
        v = decodeURIComponent(v)
      } catch {
        /* as written */
      }
      for (const one of v.split(',')) if (one.match(EMAIL)?.[0] === one.trim()) addEmail(one, 'mailto')
    } else if (/^tel:/i.test(href) && includePhones) {
      let v = href.slice(4)
      try {
        v = decodeURIComponent(v)
      } catch {
        /* as written */
      }
      if (v.replace(/\D/g, '').length >= 5) addPhone(v, parsePhoneNumberFromString(v, defaultCountry), 'tel')
    }
  }
  for (const el of Array.from(doc.querySelectorAll('[data-cfemail]'))) {
    const e = decodeCfEmail(el.getAttribute('data-cfemail') ?? '')
    if (e) addEmail(e, 'cloudflare')
  }
  const cf = /\/cdn-cgi\/l\/email-protection#([0-9a-f]+)/gi
  for (const m of html.matchAll(cf)) {
    const e = decodeCfEmail(m[1])
    if (e && e.match(EMAIL)?.[0] === e) addEmail(e, 'cloudflare')
  }
  const text = htmlToPlain(html)
    .replace(/\s*[[({]\s*at\s*[\])}]\s*/gi, '@')
    .replace(/\s*[[({]\s*dot\s*[\])}]\s*/gi, '.')
  for (const m of text.matchAll(EMAIL)) addEmail(m[0], 'text')
  if (includePhones) {
    for (const f of findPhoneNumbersInText(text, defaultCountry ? { defaultCountry } : undefined)) {
      addPhone(text.slice(f.startsAt, f.endsAt), f.number, 'text')
    }
  }
  return {
    emails: [...emails.values()]
      .slice(0, MAX_EMAILS)
      .map((e) => ({ email: e.email, sources: [...e.sources], count: e.count })),
    phones: [...phones.values()].slice(0, MAX_PHONES).map((p) => ({ ...p, sources: [...p.sources] })),
  }
}

export default handlerFor(manifest, async ({ url, include_phones = true, default_country }, ctx) => {
  const target = requireUrl('url', url)
  const country = default_country?.toUpperCase()
  if (country !== undefined && !isSupportedCountry(country))
    throw invalid(
      'default_country',
      `'${default_country}' is not a country libphonenumber knows (ISO 3166-1 alpha-2, e.g. US, GB, DE)`,
    )
  const page = await fetchOk(ctx, target, { accept: [...HTML_TYPES, 'text/plain'], maxBytes: 3 * 1024 * 1024 })
  const html =
    page.contentType === 'text/plain'
      ? `<pre>${page.text().replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</pre>`
      : page.text()
  const { emails, phones } = findContacts(html, country as CountryCode | undefined, include_phones)
  return { url: target, final_url: page.url, email_count: emails.length, phone_count: phones.length, emails, phones }
})
