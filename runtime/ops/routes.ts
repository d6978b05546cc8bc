/**
 * The operations routes (docs/operations.md): Prometheus `/metrics` (on the main port behind
 * `Authorization: Bearer <ADMIN_TOKEN>`, or without a token on `METRICS_PORT`, a listener of its own), the canary's
 * public `/reliability` (with `CANARY_PAYER`), and the HTTP answers counted by status. Only built when one of them
 * is configured: otherwise no hook and no route exists (an unknown path's 404).
 * @module ops/routes
 */
import { Elysia } from 'elysia'
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Config } from '../config'
import { errorResponse, json, newRequestId } from '../http/respond'
import { ServiceError } from '../sdk'
import { collect, type CollectDeps } from './collect'
import { m, registry } from './metrics'
import { EXPOSITION_TYPE } from './registry'
import { reliabilityReport } from './reliability'

/** Route groups of the HTTP status counter (a label per group, never per path: bounded series). */
export function routeGroup(pathname: string): string {
  if (pathname === '/api/demo/explain') return 'demo'
  if (pathname.startsWith('/api/')) return 'api'
  if (pathname === '/mcp' || pathname.startsWith('/mcp/')) return 'mcp'
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return 'admin'
  if (pathname === '/metrics' || pathname === '/reliability') return 'ops'
  if (pathname === '/health') return 'health'
  if (/^\/(services|openapi|\.well-known|discovery|llms|docs|stats|receipts?)/.test(pathname)) return 'discovery'
  return 'other'
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest()
/** The presented bearer token against ADMIN_TOKEN in constant time (hashed first: lengths never leak). */
const tokenMatches = (presented: string | undefined, token: string) =>
  Boolean(presented && token) && timingSafeEqual(digest(presented!), digest(token))

const statusOf = (v: unknown) => (v instanceof Response ? v.status : 200)

/** The exposition after a fresh read of the scrape-time gauges. */
export async function exposition(deps: CollectDeps): Promise<Response> {
  await collect(deps)
  return new Response(registry.render(), { headers: { 'content-type': EXPOSITION_TYPE, 'cache-control': 'no-store' } })
}

export interface OpsRoutesDeps {
  config: Config
  collect: CollectDeps
}

export function opsRoutes(d: OpsRoutesDeps) {
  const { config } = d
  const app = new Elysia({ name: 'ops' })
    // Every answer counted by route group and status (global: it sees the routes registered after this plugin).
    .mapResponse({ as: 'global' }, ({ request, responseValue }) => {
      try {
        const path = request.url.slice(request.url.indexOf('/', 8)).split('?')[0]
        m.http.inc({ route: routeGroup(path), status: String(statusOf(responseValue)) })
      } catch {
        /* counting never changes an answer */
      }
    })
  // /metrics on the main port only behind the console's token, and not at all when a metrics port is set.
  if (config.adminToken && config.ops.metricsPort === null)
    app.get('/metrics', ({ request }) => {
      const presented = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]
      if (!tokenMatches(presented, config.adminToken))
        return errorResponse(
          new ServiceError(401, 'UNAUTHORIZED', 'Send Authorization: Bearer <ADMIN_TOKEN> (or scrape METRICS_PORT).', {
            headers: { 'www-authenticate': 'Bearer realm="metrics"' },
          }),
          newRequestId(),
        )
      return exposition(d.collect)
    })
  if (config.ops.canaryPayers.length) app.get('/reliability', () => json(reliabilityReport()))
  return app
}

/** `METRICS_PORT`: `/metrics` (no token; keep the port private) on a listener of its own. Returns its stop. */
export function serveMetricsPort(config: Config, deps: CollectDeps): { port: number; stop(): void } | undefined {
  if (config.ops.metricsPort === null) return undefined
  const server = Bun.serve({
    port: config.ops.metricsPort,
    hostname: config.ops.metricsHost,
    fetch: (req) =>
      new URL(req.url).pathname === '/metrics'
        ? exposition(deps)
        : new Response('Not found: this port serves /metrics only.\n', { status: 404 }),
  })
  return { port: server.port!, stop: () => void server.stop(true) }
}
