import type { CatalogService } from '../catalog/index'
import { priceLine } from './tools'
import { firstSentence } from '../discovery/sentence'

const STOP = new Set([
  'a',
  'an',
  'and',
  'the',
  'to',
  'of',
  'for',
  'in',
  'on',
  'with',
  'from',
  'into',
  'is',
  'it',
  'my',
  'me',
  'i',
  'or',
  'by',
  'at',
  'as',
  'this',
  'that',
  'be',
  'can',
  'how',
  'what',
  'want',
  'need',
])

/** Lower-case words of a text, without stop words ("JSON-to-CSV!" -> ["json", "csv"]). */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP.has(w))
}

/** The first sentence of a description (abbreviations such as "e.g." do not end it), at most 160 characters. */
export function oneLine(text: string): string {
  const first = firstSentence(text)
  return first.length > 160 ? `${first.slice(0, 157)}...` : first
}

interface Indexed {
  svc: CatalogService
  slug: Set<string>
  name: Set<string>
  category: string
  description: Set<string>
}

/** Match weight of one query word against a field: whole word, or a prefix of at least 3 letters (stem-like). */
const hit = (field: Set<string>, w: string) =>
  field.has(w)
    ? 1
    : w.length >= 3 && [...field].some((f) => f.startsWith(w) || (f.length >= 3 && w.startsWith(f)))
      ? 0.5
      : 0

/** Ranked service search: slug words weigh most, then name, category, description. */
export function createSearch(services: CatalogService[]) {
  const index: Indexed[] = services.map((svc) => ({
    svc,
    slug: new Set(words(svc.slug)),
    name: new Set(words(svc.manifest.name)),
    category: svc.manifest.category,
    description: new Set(words(svc.manifest.description)),
  }))
  return (query: string, limit: number) => {
    const q = [...new Set(words(query))].slice(0, 20)
    // Rare words weigh more (inverse document frequency): "slug" says more than "text".
    const fieldsHit = (e: Indexed, w: string) =>
      [5 * hit(e.slug, w), 3 * hit(e.name, w), e.category === w ? 2 : 0, hit(e.description, w)].reduce(
        (a, b) => a + b,
        0,
      )
    const weight = new Map(
      q.map((w) => [w, Math.log(1 + index.length / Math.max(1, index.filter((e) => fieldsHit(e, w) > 0).length))]),
    )
    const scored = index
      .map((e) => {
        let score = e.svc.slug === query.trim().toLowerCase() ? 100 : 0
        let matched = 0
        for (const w of q) {
          const s = fieldsHit(e, w) * weight.get(w)!
          if (s > 0) matched++
          score += s
        }
        // Services that match more of the query's words come first.
        return { e, score: score + (q.length > 1 ? (4 * matched) / q.length : 0) }
      })
      .filter((x) => x.score > 0)
    scored.sort((a, b) => b.score - a.score || a.e.svc.slug.localeCompare(b.e.svc.slug))
    return {
      query,
      total_matches: scored.length,
      results: scored.slice(0, limit).map(({ e, score }) => ({
        slug: e.svc.slug,
        tool: e.svc.slug,
        name: e.svc.manifest.name,
        category: e.category,
        price: priceLine(e.svc),
        pricing: e.svc.pricing,
        description: oneLine(e.svc.manifest.description),
        available: e.svc.available,
        score: Math.round(score * 100) / 100,
      })),
    }
  }
}
