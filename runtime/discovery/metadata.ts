import type { CatalogService } from '../catalog'
import type { Config } from '../config'
import type { Category } from '../sdk'

/**
 * Bazaar service metadata (x402 extensions 2.27, `resource.serviceName` / `tags` / `iconUrl`): what indexers
 * show next to a resource. Values follow the bazaar rules (printable ASCII, serviceName <= 32 chars, <= 5 tags of
 * <= 32 chars, icon an absolute http(s) URL); facilitators silently drop fields that break them.
 */

/** Topical tags per category: the category first, then what an agent would search for. At most 5. */
const CATEGORY_TAGS: Record<Category, string[]> = {
  analysis: ['analysis', 'code', 'ai', 'developer-tools'],
  web: ['web', 'http', 'scraping', 'urls'],
  text: ['text', 'strings', 'utilities'],
  encoding: ['encoding', 'hashing', 'base64', 'utilities'],
  data: ['data', 'json', 'csv', 'conversion'],
  datetime: ['datetime', 'time', 'calendar', 'timezones'],
  validation: ['validation', 'parsing', 'utilities'],
  network: ['network', 'ip', 'dns'],
  math: ['math', 'calculator', 'statistics'],
  finance: ['finance', 'calculator', 'investing', 'loans'],
  crypto: ['crypto', 'defi', 'ethereum', 'calculator'],
  'live-data': ['live-data', 'api', 'realtime'],
  language: ['language', 'ai', 'llm', 'nlp'],
  media: ['media', 'documents', 'images', 'conversion'],
  payments: ['payments', 'x402', 'usdc'],
}

const PRINTABLE = /[^\x20-\x7e]/g

/** The operator's name as a bazaar serviceName: printable ASCII, at most 32 characters. */
export function serviceNameOf(cfg: Config): string {
  const name = cfg.provider.name.replace(PRINTABLE, '').trim().slice(0, 32).trim()
  return name || 'x402 API'
}

export const tagsOf = (category: Category): string[] => (CATEGORY_TAGS[category] ?? [category]).slice(0, 5)

/** The icon URL: ICON_URL / provider.icon_url when set, else the icon this server serves at /icon.svg. */
export const iconUrlOf = (cfg: Config): string =>
  cfg.provider.iconUrl || `${cfg.provider.website.replace(/\/+$/, '')}/icon.svg`

export interface ServiceMetadata {
  serviceName: string
  tags: string[]
  iconUrl: string
}

/** The three bazaar fields for one service (tags from its category). */
export const metadataOf = (cfg: Config, s: CatalogService): ServiceMetadata => ({
  serviceName: serviceNameOf(cfg),
  tags: tagsOf(s.manifest.category),
  iconUrl: iconUrlOf(cfg),
})
