import type { ChannelOffer } from '../pay/schemes/batch-settlement/scheme'
import { Elysia } from 'elysia'
import type { CatalogService } from '../catalog/index'
import type { Config } from '../config'
import { errorResponse, json, newRequestId, PREFLIGHT_HEADERS } from '../http/respond'
import { ServiceError } from '../sdk'
import { ICON_SVG } from './icon'
import { llmsTxt } from './llms'
import { buildSearchIndex, searchDocument } from './search'

/** Discovery GET routes for agents and indexers: /llms.txt, /discovery/search, /icon.svg. */
export function discoveryRoutes(
  services: CatalogService[],
  config: Config,
  payTo: string,
  bootedAt: number,
  channels?: ChannelOffer,
) {
  // built again when payment channels are added on a network while running (`version`)
  let llms = llmsTxt(services, config, channels?.terms)
  let llmsVersion = channels?.version ?? 0
  const llmsNow = () => {
    if ((channels?.version ?? 0) !== llmsVersion) {
      llmsVersion = channels?.version ?? 0
      llms = llmsTxt(services, config, channels?.terms)
    }
    return llms
  }
  const index = buildSearchIndex(services)
  return new Elysia({ name: 'discovery-routes' })
    .get(
      '/llms.txt',
      () =>
        new Response(llmsNow(), {
          headers: {
            'content-type': 'text/plain; charset=utf-8',
            ...PREFLIGHT_HEADERS,
            'cache-control': 'public, max-age=300',
          },
        }),
    )
    .get(
      '/icon.svg',
      () =>
        new Response(ICON_SVG, {
          headers: { 'content-type': 'image/svg+xml', ...PREFLIGHT_HEADERS, 'cache-control': 'public, max-age=86400' },
        }),
    )
    .get('/discovery/search', ({ request }) => {
      try {
        return json(
          searchDocument(index, services, config, payTo, new URL(request.url).searchParams, bootedAt, channels),
        )
      } catch (e) {
        if (e instanceof ServiceError) return errorResponse(e, newRequestId())
        throw e
      }
    })
}
