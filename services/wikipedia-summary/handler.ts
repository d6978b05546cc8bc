import { handlerFor, invalid, ServiceError } from '../../runtime/sdk'
import { malformed, num } from '../_lib/live-data'
import manifest from './manifest'

const HOUR = 60 * 60 * 1000
const TYPES = ['standard', 'disambiguation', 'no-extract', 'mainpage'] as const
type Img = { source?: unknown; width?: unknown; height?: unknown } | undefined

const image = (i: Img) =>
  i && typeof i.source === 'string'
    ? { source: i.source, width: Math.trunc(num(i.width) ?? 0), height: Math.trunc(num(i.height) ?? 0) }
    : null
const s = (v: unknown) => (typeof v === 'string' && v ? v : null)

interface Summary {
  type?: string
  title?: string
  displaytitle?: string
  titles?: { canonical?: string; normalized?: string; display?: string }
  pageid?: number
  lang?: string
  description?: string
  extract?: string
  extract_html?: string
  thumbnail?: Img
  originalimage?: Img
  content_urls?: { desktop?: { page?: string }; mobile?: { page?: string } }
  coordinates?: { lat?: number; lon?: number }
  timestamp?: string
  wikibase_item?: string
  detail?: string
}

/** Title → path segment: spaces become underscores, the rest percent-encoded (the API normalises case and follows redirects). */
export function titleSegment(title: string): string {
  const t = title
    .replace(/[\s_]+/g, ' ')
    .trim()
    .replace(/ /g, '_')
  return encodeURIComponent(t).replace(/%2C/g, ',').replace(/%3A/g, ':')
}

export default handlerFor(manifest, async ({ title, lang = 'en' }, ctx) => {
  const clean = String(title ?? '')
    .replace(/[\s_]+/g, ' ')
    .trim()
  if (!clean) throw invalid('title', 'is required: a Wikipedia article title')
  if (/[#<>[\]{}|]/.test(clean))
    throw invalid('title', 'contains characters MediaWiki titles cannot contain (# < > [ ] { } |)')
  if (!/^[a-z]{2,3}(-[a-z]{2,8})?$/.test(lang))
    throw invalid('lang', 'must be a Wikipedia language code such as en, de or zh-yue')
  const { status, data } = await ctx
    .upstream('wikipedia')
    .getJson<Summary>(`/page/summary/${titleSegment(clean)}`, { lang }, { ttlMs: HOUR, allowStatus: [404] })
  if (status === 404) throw new ServiceError(404, 'NOT_FOUND', `${lang}.wikipedia.org has no article titled '${clean}'`)
  if (!data || typeof data !== 'object' || typeof data.title !== 'string' || typeof data.extract !== 'string')
    throw malformed('wikipedia', 'a page summary')
  const url = s(data.content_urls?.desktop?.page) ?? `https://${lang}.wikipedia.org/wiki/${titleSegment(data.title)}`
  const type = (TYPES as readonly string[]).includes(data.type ?? '')
    ? (data.type as (typeof TYPES)[number])
    : 'standard'
  const lat = num(data.coordinates?.lat)
  const lon = num(data.coordinates?.lon)
  return {
    title: (data.titles?.normalized ?? data.title).replace(/_/g, ' '),
    display_title: (data.titles?.display ?? data.displaytitle ?? data.title).replace(/<[^>]*>/g, ''),
    type,
    description: s(data.description),
    extract: data.extract,
    extract_html: s(data.extract_html),
    lang: s(data.lang) ?? lang,
    page_id: typeof data.pageid === 'number' ? data.pageid : null,
    url,
    mobile_url: s(data.content_urls?.mobile?.page),
    thumbnail: image(data.thumbnail),
    original_image: image(data.originalimage),
    coordinates: lat !== null && lon !== null ? { lat, lon } : null,
    last_edited: s(data.timestamp),
    wikidata_id: s(data.wikibase_item),
    attribution: ctx.upstream('wikipedia').attribution,
  }
})
