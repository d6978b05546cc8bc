import type { CatalogService } from '../catalog/index'
import type { Config } from '../config'
import type { ChannelOffer } from '../pay/schemes/batch-settlement/scheme'
import { ServiceError } from '../sdk'
import { discoveryItem, filterServices } from './surfaces'

/** Query limits: a search is cheap, but its input is still capped. */
export const SEARCH_MAX_QUERY = 200
export const SEARCH_MAX_TERMS = 16
export const SEARCH_DEFAULT_LIMIT = 10
export const SEARCH_MAX_LIMIT = 50

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)

/** Field weights: a hit in the slug or name counts most, then tags/category, then the description. */
const WEIGHTS = { slug: 8, name: 6, tag: 4, description: 2 } as const

interface Indexed {
  s: CatalogService
  fields: Array<{ weight: number; words: Set<string> }>
}

/** Per-service word sets, built once per catalog. */
export function buildSearchIndex(services: CatalogService[]): Indexed[] {
  return services.map((s) => ({
    s,
    fields: [
      { weight: WEIGHTS.slug, words: new Set(words(s.slug)) },
      { weight: WEIGHTS.name, words: new Set(words(s.manifest.name)) },
      { weight: WEIGHTS.tag, words: new Set([...s.tags, s.manifest.category].flatMap(words)) },
      { weight: WEIGHTS.description, words: new Set(words(s.manifest.description)) },
    ],
  }))
}

/**
 * Score of one service for the query terms: per term, the best field weight among exact word hits, or half of it
 * for a prefix hit (terms of 3+ characters: "conv" finds "convert"). A full-phrase hit in the slug adds a bonus.
 * Every term must hit somewhere (AND), so adding words narrows the results.
 */
function score(x: Indexed, terms: string[], phrase: string): number {
  let total = 0
  for (const t of terms) {
    let best = 0
    for (const f of x.fields) {
      if (f.words.has(t)) best = Math.max(best, f.weight)
      else if (t.length >= 3 && best < f.weight / 2)
        for (const w of f.words)
          if (w.startsWith(t)) {
            best = f.weight / 2
            break
          }
    }
    if (!best) return 0
    total += best
  }
  return total + (x.s.slug === phrase ? 20 : 0)
}

/** Opaque cursor: the next offset bound to the query it came from (base64url of `offset:fingerprint`). */
const fingerprint = (q: string) => {
  let h = 0x811c9dc5
  for (let i = 0; i < q.length; i++) h = Math.imul(h ^ q.charCodeAt(i), 0x01000193) >>> 0
  return h.toString(36)
}
const encodeCursor = (offset: number, key: string) => Buffer.from(`${offset}:${fingerprint(key)}`).toString('base64url')
function decodeCursor(cursor: string, key: string): number {
  const m = /^(\d{1,6}):([a-z0-9]{1,8})$/.exec(
    cursor.length <= 64 ? Buffer.from(cursor, 'base64url').toString('utf8') : '',
  )
  if (!m)
    throw new ServiceError(
      422,
      'INVALID_CURSOR',
      'cursor is not one this server issued; pass the pagination.cursor of the previous page unchanged',
      { details: [{ path: '/cursor', message: 'malformed' }] },
    )
  if (m[2] !== fingerprint(key))
    throw new ServiceError(
      422,
      'INVALID_CURSOR',
      'cursor belongs to another query; repeat the same query and filters with it',
      { details: [{ path: '/cursor', message: 'query mismatch' }] },
    )
  return Number(m[1])
}

/**
 * GET /discovery/search?query=&limit=&cursor= (+ the list filters): services ranked by relevance to the query
 * over slug, name, tags and description, in the Bazaar SearchDiscoveryResourcesResponse shape with cursor
 * pagination. Bad parameters throw a 422 ServiceError.
 */
export function searchDocument(
  index: Indexed[],
  services: CatalogService[],
  cfg: Config,
  payTo: string,
  params: URLSearchParams,
  bootedAt: number,
  channels?: ChannelOffer,
) {
  const raw = params.get('query') ?? params.get('q')
  const query = (raw ?? '').trim()
  if (!query)
    throw new ServiceError(
      422,
      'INVALID_QUERY',
      'query is required: words to look for in service names, descriptions and tags',
      { details: [{ path: '/query', message: 'required' }] },
    )
  if (query.length > SEARCH_MAX_QUERY)
    throw new ServiceError(422, 'INVALID_QUERY', `query is longer than ${SEARCH_MAX_QUERY} characters`, {
      details: [{ path: '/query', message: 'too long' }],
    })
  const terms = [...new Set(words(query))]
  if (!terms.length)
    throw new ServiceError(422, 'INVALID_QUERY', 'query has no letters or digits to search for', {
      details: [{ path: '/query', message: 'no words' }],
    })
  if (terms.length > SEARCH_MAX_TERMS)
    throw new ServiceError(422, 'INVALID_QUERY', `query has more than ${SEARCH_MAX_TERMS} words`, {
      details: [{ path: '/query', message: 'too many words' }],
    })
  const limitText = params.get('limit')
  if (limitText !== null && !/^\d{1,4}$/.test(limitText))
    throw new ServiceError(422, 'INVALID_LIMIT', `limit must be an integer from 1 to ${SEARCH_MAX_LIMIT}`, {
      details: [{ path: '/limit', message: 'not an integer' }],
    })
  const limit = limitText === null ? SEARCH_DEFAULT_LIMIT : Number(limitText)
  if (limit < 1 || limit > SEARCH_MAX_LIMIT)
    throw new ServiceError(422, 'INVALID_LIMIT', `limit must be an integer from 1 to ${SEARCH_MAX_LIMIT}`, {
      details: [{ path: '/limit', message: 'out of range' }],
    })
  const key = [
    terms.join(' '),
    ...['type', 'tags', 'network', 'scheme', 'payTo', 'extensions'].map((k) => params.get(k) ?? ''),
  ].join('\n')
  const cursor = params.get('cursor')
  const offset = cursor ? decodeCursor(cursor, key) : 0

  const allowed = new Set(filterServices(services, cfg, payTo, params, channels))
  const phrase = terms.join('-')
  const ranked = index
    .filter((x) => allowed.has(x.s))
    .map((x) => ({ s: x.s, score: score(x, terms, phrase) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.s.slug.localeCompare(b.s.slug))
  const page = ranked.slice(offset, offset + limit)
  const next = offset + limit < ranked.length ? encodeCursor(offset + limit, key) : null
  const lastUpdated = new Date(bootedAt).toISOString()
  return {
    x402Version: 2,
    resources: page.map((r) => discoveryItem(r.s, cfg, payTo, lastUpdated, channels)),
    partialResults: false,
    pagination: { limit, cursor: next },
    total: ranked.length,
  }
}
