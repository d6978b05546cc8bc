import type { ChannelOffer } from './pay/schemes/batch-settlement/scheme'
import { Elysia } from 'elysia'
import type { CatalogService } from './catalog/index'
import type { Config } from './config'
import { lazyApp } from './http/lazy-app'
import { contained } from './http/contained'
import type { McpDeps } from './mcp/routes'
import type { Logger } from './sdk'

/**
 * Route groups most requests never touch, mounted at boot as thin forwards: their modules load and their tables
 * (llms.txt, the search index, the MCP tool list, the OpenAPI viewer) are built on the first request to them.
 * Each `import()` specifier is literal, so the single binary still bundles them.
 */

type ServerLike = { requestIP(r: Request): { address: string } | null } | null
const HIDDEN = { detail: { hide: true } }

/** /llms.txt, /icon.svg, /discovery/search (runtime/discovery/routes.ts). */
export function lazyDiscoveryRoutes(
  services: CatalogService[],
  config: Config,
  payTo: string,
  bootedAt: number,
  log: Logger,
  channels?: ChannelOffer,
) {
  const forward = lazyApp(async () =>
    contained((await import('./discovery/routes')).discoveryRoutes(services, config, payTo, bootedAt, channels), log),
  )
  const to = ({ request }: { request: Request }) => forward(request)
  return new Elysia({ name: 'discovery-routes-lazy' })
    .get('/llms.txt', to, HIDDEN)
    .get('/icon.svg', to, HIDDEN)
    .get('/discovery/search', to, HIDDEN)
}

/**
 * /mcp (runtime/mcp/routes.ts). The client address is taken here, where the socket is known, and handed to the
 * MCP app by request (the forwarded request is the same object).
 */
export function lazyMcpRoutes(deps: McpDeps, clientOf: (req: Request, server: ServerLike) => string, version: string) {
  const clients = new WeakMap<Request, string>()
  const forward = lazyApp(async () =>
    contained(
      (await import('./mcp/routes')).mcpRoutes(deps, (req) => clients.get(req) ?? clientOf(req, null), version),
      deps.log,
    ),
  )
  const to = ({ request, server }: { request: Request; server: ServerLike }) => {
    clients.set(request, clientOf(request, server))
    return forward(request)
  }
  const opts = { parse: 'none' as const, ...HIDDEN }
  return new Elysia({ name: 'mcp-lazy' })
    .options('/mcp', to, opts)
    .post('/mcp', to, opts)
    .get('/mcp', to, opts)
    .delete('/mcp', to, opts)
}

/**
 * /docs and its assets (runtime/discovery/docs-page.ts): the reference viewer (Swagger UI from the pinned npm
 * package, served from this origin) showing /openapi/full.json (which runtime/app.ts serves like /openapi.json) in
 * OpenAPI 3.0's words (/docs/openapi.json), which Swagger UI reads far faster.
 */
export function lazyDocsRoutes(document: () => unknown, log: Logger) {
  const forward = lazyApp(async () => contained((await import('./discovery/docs-page')).docsRoutes(document), log))
  const to = ({ request }: { request: Request }) => forward(request)
  return new Elysia({ name: 'docs-lazy' })
    .get('/docs', to, HIDDEN)
    .get('/docs/swagger-ui.css', to, HIDDEN)
    .get('/docs/swagger-ui-bundle.js', to, HIDDEN)
    .get('/docs/init.js', to, HIDDEN)
    .get('/docs/openapi.json', to, HIDDEN)
}
