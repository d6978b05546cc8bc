import type { CatalogService } from './index'
import type { Config } from '../config'

/**
 * Bazaar service metadata (x402 extensions 2.27, `resource.serviceName` / `tags` / `iconUrl`): what indexers
 * show next to a resource. Values follow the bazaar rules (printable ASCII, serviceName <= 32 chars, <= 5 tags of
 * <= 32 chars, icon an absolute http(s) URL); facilitators silently drop fields that break them.
 */

const PRINTABLE = /[^\x20-\x7e]/g

/** The operator's name as a bazaar serviceName: printable ASCII, at most 32 characters. */
export function serviceNameOf(cfg: Config): string {
  const name = cfg.provider.name.replace(PRINTABLE, '').trim().slice(0, 32).trim()
  return name || 'x402 API'
}

/** The icon URL: ICON_URL / provider.icon_url when set, else the icon this server serves at /icon.svg. */
export const iconUrlOf = (cfg: Config): string =>
  cfg.provider.iconUrl || `${cfg.provider.website.replace(/\/+$/, '')}/icon.svg`

export interface ServiceMetadata {
  serviceName: string
  tags: string[]
  iconUrl: string
}

/** The three bazaar fields for one service (tags from its category, services/categories.ts). */
export const metadataOf = (cfg: Config, s: CatalogService): ServiceMetadata => ({
  serviceName: serviceNameOf(cfg),
  tags: s.tags,
  iconUrl: iconUrlOf(cfg),
})
