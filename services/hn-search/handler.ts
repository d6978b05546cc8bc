import { handlerFor, invalid, ServiceError } from '../../runtime/sdk'
import { malformed, num } from '../_lib/live-data'
import { htmlToPlain } from '../_lib/web-page'
import manifest from './manifest'

const TTL = 2 * 60 * 1000
const TYPES = ['story', 'comment', 'poll', 'pollopt', 'job'] as const

interface Hit {
  objectID?: string
  title?: string | null
  url?: string | null
  author?: string
  points?: number | null
  num_comments?: number | null
  story_text?: string | null
  comment_text?: string | null
  story_id?: number | null
  story_title?: string | null
  parent_id?: number | null
  created_at?: string
  created_at_i?: number
  _tags?: string[]
}
interface Result {
  hits?: Hit[]
  nbHits?: number
  page?: number
  nbPages?: number
  hitsPerPage?: number
}

const int = (v: unknown) => {
  const n = num(v)
  return n === null ? null : Math.trunc(n)
}
const cap = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

export default handlerFor(manifest, async ({ query, tags, sort = 'relevance', hits_per_page = 20, page = 0 }, ctx) => {
  const q = String(query ?? '').trim()
  const tg = String(tags ?? '').trim()
  if (!q && !tg) throw invalid('query', 'give a query, tags, or both')
  if (tg && !/^[A-Za-z0-9_,()-]+$/.test(tg)) throw invalid('tags', 'may contain only letters, digits, _ , ( ) and -')
  const { data } = await ctx
    .upstream('hn-algolia')
    .getJson<Result>(
      sort === 'date' ? '/search_by_date' : '/search',
      { query: q, tags: tg || undefined, hitsPerPage: hits_per_page, page },
      { ttlMs: TTL },
    )
  if (!data || !Array.isArray(data.hits)) throw malformed('hn-algolia', 'a hits list')
  const hits = data.hits
    .filter((h) => h && typeof h.objectID === 'string')
    .map((h) => {
      const tagList = Array.isArray(h._tags) ? h._tags.filter((x) => typeof x === 'string') : []
      const type: (typeof TYPES)[number] | 'unknown' = TYPES.find((t) => tagList.includes(t)) ?? 'unknown'
      const rawText = h.story_text ?? h.comment_text ?? null
      const text = rawText ? cap(htmlToPlain(rawText), 2000) : null
      const created =
        typeof h.created_at === 'string'
          ? h.created_at
          : typeof h.created_at_i === 'number'
            ? new Date(h.created_at_i * 1000).toISOString()
            : ''
      return {
        id: h.objectID!,
        type,
        title: h.title ?? h.story_title ?? null,
        url: h.url || null,
        hn_url: `https://news.ycombinator.com/item?id=${encodeURIComponent(h.objectID!)}`,
        author: h.author ?? null,
        points: int(h.points),
        num_comments: int(h.num_comments),
        created_at: created,
        text: text || null,
        story_id: int(h.story_id),
        parent_id: int(h.parent_id),
        tags: tagList,
      }
    })
  if (!hits.length)
    throw new ServiceError(
      404,
      'NOT_FOUND',
      `no Hacker News items match${q ? ` '${q}'` : ''}${tg ? ` with tags ${tg}` : ''}${page ? ` on page ${page}` : ''}`,
    )
  return {
    query: q,
    tags: tg || null,
    sort,
    total_hits: int(data.nbHits) ?? hits.length,
    page: int(data.page) ?? page,
    pages: int(data.nbPages) ?? 1,
    hits_per_page: int(data.hitsPerPage) ?? hits_per_page,
    count: hits.length,
    hits,
    attribution: ctx.upstream('hn-algolia').attribution,
  }
})
