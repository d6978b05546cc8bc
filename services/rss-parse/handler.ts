import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { handlerFor, ownError } from '../../runtime/sdk'
import { collapse, fetchOk, htmlToPlain, requireUrl } from '../_lib/web-page'
import manifest from './manifest'

type Node = Record<string, unknown>
const ARRAYS = new Set(['item', 'entry', 'category', 'link', 'enclosure', 'author', 'dc:subject', 'media:content'])

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // DTD entities are never expanded (no entity-expansion bombs); the XML built-ins and character references are
  // decoded below.
  processEntities: false,
  isArray: (name) => ARRAYS.has(name),
})

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
export function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|lt|gt|amp|quot|apos);/g, (m, e: string) => {
    if (e[0] !== '#') return XML_ENTITIES[e]
    const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m
  })
}

/** The text of an element however the parser shaped it (string, {#text}, array). */
function text(v: unknown): string | null {
  if (v === undefined || v === null) return null
  if (Array.isArray(v)) return text(v[0])
  if (typeof v === 'object') return text((v as Node)['#text'])
  const s = decodeXml(String(v)).trim()
  return s || null
}

const plain = (v: unknown, cap: number): string | null => {
  const s = text(v)
  if (!s) return null
  const p = /<[a-z!/]/i.test(s) ? htmlToPlain(s) : collapse(s)
  return p ? (p.length > cap ? `${p.slice(0, cap - 1)}…` : p) : null
}

function iso(v: unknown): string | null {
  const s = text(v)
  if (!s) return null
  const ms = Date.parse(s.replace(/\b(UT|Z)$/, 'GMT'))
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null
}

function absolute(v: string | null, base: string): string | null {
  if (!v) return null
  try {
    const u = new URL(v, base)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : v
  } catch {
    return v
  }
}

const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v])

function atomLink(links: unknown, base: string): string | null {
  const all = list(links).filter((l): l is Node => typeof l === 'object' && l !== null)
  const pick = all.find((l) => !l['@_rel'] || l['@_rel'] === 'alternate') ?? all[0]
  return absolute(pick ? (text(pick['@_href']) ?? null) : text(links), base)
}

function person(v: unknown): string | null {
  const first = list(v)[0]
  if (first && typeof first === 'object' && 'name' in (first as Node)) return text((first as Node).name)
  return text(first)
}

export function parseFeed(xml: string, base: string, maxItems: number) {
  const valid = XMLValidator.validate(xml)
  if (valid !== true)
    throw ownError(
      manifest,
      'NOT_A_FEED',
      `the document is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`,
    )
  let doc: Node
  try {
    doc = parser.parse(xml) as Node
  } catch (e) {
    throw ownError(
      manifest,
      'NOT_A_FEED',
      `the document is not well-formed XML: ${(e as Error).message.split('\n')[0]}`,
    )
  }
  const rss = doc.rss as Node | undefined
  const atom = doc.feed as Node | undefined
  const rdf = doc['rdf:RDF'] as Node | undefined
  if (rss && typeof rss === 'object') {
    const ch = (list(rss.channel)[0] ?? {}) as Node
    const items = list(ch.item) as Node[]
    return {
      format: 'rss' as const,
      feed: {
        title: plain(ch.title, 500),
        link: absolute(text(list(ch.link).find((l) => typeof l !== 'object') ?? ch.link), base),
        description: plain(ch.description, 2000),
        language: text(ch.language),
        updated: iso(ch.lastBuildDate) ?? iso(ch.pubDate) ?? iso(ch['dc:date']),
      },
      total: items.length,
      items: items.slice(0, maxItems).map((it) => ({
        title: plain(it.title, 500),
        link:
          absolute(text(list(it.link).find((l) => typeof l !== 'object') ?? null), base) ??
          (isPermaLink(it.guid) ? absolute(text(it.guid), base) : null),
        id: text(it.guid),
        published: iso(it.pubDate) ?? iso(it['dc:date']),
        updated: null,
        author: text(it.author) ?? text(it['dc:creator']),
        summary: plain(it.description, 1000),
        content: plain(it['content:encoded'], 5000),
        categories: [...list(it.category), ...list(it['dc:subject'])].map(text).filter((c): c is string => !!c),
        enclosures: list(it.enclosure)
          .filter((e): e is Node => typeof e === 'object' && e !== null && !!(e as Node)['@_url'])
          .map((e) => ({
            url: absolute(text(e['@_url']), base) ?? '',
            type: text(e['@_type']),
            length: toInt(e['@_length']),
          })),
      })),
    }
  }
  if (atom && typeof atom === 'object') {
    const entries = list(atom.entry) as Node[]
    return {
      format: 'atom' as const,
      feed: {
        title: plain(atom.title, 500),
        link: atomLink(atom.link, base),
        description: plain(atom.subtitle, 2000),
        language: text(atom['@_xml:lang']),
        updated: iso(atom.updated),
      },
      total: entries.length,
      items: entries.slice(0, maxItems).map((e) => ({
        title: plain(e.title, 500),
        link: atomLink(e.link, base),
        id: text(e.id),
        published: iso(e.published) ?? iso(e.issued),
        updated: iso(e.updated),
        author: person(e.author) ?? person(atom.author),
        summary: plain(e.summary, 1000),
        content: plain(e.content, 5000),
        categories: list(e.category)
          .map((c) => (typeof c === 'object' && c ? (text((c as Node)['@_term']) ?? text(c)) : text(c)))
          .filter((c): c is string => !!c),
        enclosures: list(e.link)
          .filter(
            (l): l is Node =>
              typeof l === 'object' && l !== null && (l as Node)['@_rel'] === 'enclosure' && !!(l as Node)['@_href'],
          )
          .map((l) => ({
            url: absolute(text(l['@_href']), base) ?? '',
            type: text(l['@_type']),
            length: toInt(l['@_length']),
          })),
      })),
    }
  }
  if (rdf && typeof rdf === 'object') {
    const ch = (list(rdf.channel)[0] ?? {}) as Node
    const items = list(rdf.item) as Node[]
    return {
      format: 'rdf' as const,
      feed: {
        title: plain(ch.title, 500),
        link: absolute(text(ch.link), base),
        description: plain(ch.description, 2000),
        language: text(ch['dc:language']),
        updated: iso(ch['dc:date']),
      },
      total: items.length,
      items: items.slice(0, maxItems).map((it) => ({
        title: plain(it.title, 500),
        link: absolute(text(it.link), base),
        id: text(it['@_rdf:about']),
        published: iso(it['dc:date']),
        updated: null,
        author: text(it['dc:creator']),
        summary: plain(it.description, 1000),
        content: plain(it['content:encoded'], 5000),
        categories: list(it['dc:subject'])
          .map(text)
          .filter((c): c is string => !!c),
        enclosures: [],
      })),
    }
  }
  throw ownError(manifest, 'NOT_A_FEED', 'the document is not an RSS or Atom feed (no <rss>, <feed> or <rdf:RDF> root)')
}

function isPermaLink(guid: unknown): boolean {
  if (guid && typeof guid === 'object')
    return (guid as Node)['@_isPermaLink'] !== 'false' && /^https?:\/\//.test(text(guid) ?? '')
  return /^https?:\/\//.test(text(guid) ?? '')
}

function toInt(v: unknown): number | null {
  const s = text(v)
  return s && /^\d{1,15}$/.test(s) ? Number(s) : null
}

export default handlerFor(manifest, async ({ url, max_items = 50 }, ctx) => {
  const target = requireUrl('url', url)
  const page = await fetchOk(ctx, target, {
    accept: [
      'application/rss+xml',
      'application/atom+xml',
      'application/rdf+xml',
      'application/xml',
      'text/xml',
      'application/x-rss+xml',
      'text/rss+xml',
      'text/plain',
      'text/html',
      'application/octet-stream',
    ],
    maxBytes: 5 * 1024 * 1024,
  })
  const body = page.text().replace(/^\uFEFF/, '')
  if (!/^\s*(<\?xml|<!--|<!DOCTYPE|<rss|<feed|<rdf:RDF)/i.test(body))
    throw ownError(manifest, 'NOT_A_FEED', `the URL returned ${page.contentType || 'a document'} that is not XML`)
  const f = parseFeed(body, page.url, max_items)
  return {
    url: target,
    final_url: page.url,
    format: f.format,
    feed: f.feed,
    total_items: f.total,
    item_count: f.items.length,
    items: f.items,
  }
})
