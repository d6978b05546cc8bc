import { Elysia } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import type { CatalogService } from './catalog'
import type { Database } from 'bun:sqlite'
import type { DailyQuota } from './db/quota'
import { summarize } from './db/stats'
import { utcDay } from './db/sqlite'
import { clientAddress } from './http/client-ip'
import { errorResponse, json, newRequestId, PREFLIGHT_HEADERS } from './http/respond'
import { discoveryDocument, servicesDocument, wellKnownDocument } from './discovery/surfaces'
import { openapiDocument } from './discovery/openapi'
import { servePaid, type PipelineDeps } from './pipeline'
import { serveDemo } from './demo'
import { siteRoutes } from './site/routes'
import { ServiceError } from './sdk'
import type { FacilitatorHealth } from './pay/types'

export const VERSION = '1.0.0'
const HEALTH_HEADERS = { 'content-type': 'application/json; charset=utf-8', ...PREFLIGHT_HEADERS, 'cache-control': 'no-store' }
const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0052ff"/><text x="16" y="22" font-size="14" text-anchor="middle" fill="#fff" font-family="sans-serif">402</text></svg>'

export interface AppDeps extends PipelineDeps {
  services: CatalogService[]
  quota: DailyQuota
  db: Database
  bootedAt: number
  /** The settlement side's health (settler balances), shown in /health. */
  settlement?: () => FacilitatorHealth | undefined
}

/** The HTTP app: public GET surfaces, the demo, and every service under /api and /api/v1. No listen(). */
export function createApp(deps: AppDeps) {
  const { services, config } = deps
  const bySlug = new Map(services.map((s) => [s.slug, s]))
  const started = Date.now()
  const ping = deps.db.prepare('SELECT 1')
  let dbOk = true
  let dbCheckedAt = 0
  let healthBody = ''
  const available = services.filter((s) => s.available).length
  const health = () => {
    const settlement = deps.settlement?.()
    const degraded = !dbOk || (settlement !== undefined && (!settlement.ok || !settlement.canPay))
    return { status: degraded ? 'degraded' : 'ok', version: VERSION, uptime_seconds: Math.round((Date.now() - started) / 1000), database: dbOk ? 'ok' : 'error', services: services.length, available_services: available, network: config.network, pay_to: deps.payTo, ...(settlement ? { settlement } : {}) }
  }
  const docs = {
    services: JSON.stringify(servicesDocument(services, config)),
    wellKnown: JSON.stringify(wellKnownDocument(services, config, deps.payTo)),
    openapi: openapiDocument(services, config, VERSION),
  }
  const cached = (body: string) => new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8', ...PREFLIGHT_HEADERS } })
  const client = (req: Request, server: { requestIP(r: Request): { address: string } | null } | null) =>
    clientAddress(server?.requestIP(req)?.address, req.headers.get('x-forwarded-for'), config.trustedProxies)

  const paid = new Elysia({ name: 'paid-services' })
  for (const s of services) {
    paid.post(`/${s.slug}`, ({ request, server }) => servePaid(s, request, newRequestId(), client(request, server), deps), { parse: 'none', detail: { hide: true } })
  }

  return new Elysia()
    .options('*', () => new Response(null, { status: 204, headers: PREFLIGHT_HEADERS }))
    .onError(({ code, request, error }) => {
      const id = newRequestId()
      if (code === 'NOT_FOUND') {
        const slug = new URL(request.url).pathname.match(/^\/api\/(?:v1\/)?([^/]+)\/?$/)?.[1]
        if (slug && bySlug.has(slug)) return errorResponse(new ServiceError(405, 'METHOD_NOT_ALLOWED', `Use POST for /api/${slug}.`, undefined, undefined, { allow: 'POST, OPTIONS' }), id)
        return errorResponse(new ServiceError(404, 'NOT_FOUND', `No route for ${request.method} ${new URL(request.url).pathname}. See /services.`), id)
      }
      deps.log.error('unhandled error', { request_id: id, code: String(code), error: String((error as Error)?.stack ?? error) })
      return errorResponse(new ServiceError(code === 'PARSE' ? 400 : 500, code === 'PARSE' ? 'INVALID_BODY' : 'INTERNAL', code === 'PARSE' ? 'The body could not be parsed.' : 'An internal error occurred.'), id)
    })
    .use(siteRoutes)
    .get('/health', () => {
      const now = Date.now()
      if (now - dbCheckedAt < 1000 && healthBody) return new Response(healthBody, { status: dbOk ? 200 : 503, headers: HEALTH_HEADERS })
      dbCheckedAt = now
      try { ping.get(); dbOk = true } catch { dbOk = false }
      healthBody = JSON.stringify(health())
      return new Response(healthBody, { status: dbOk ? 200 : 503, headers: HEALTH_HEADERS })
    })
    .get('/favicon.svg', () => new Response(FAVICON, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' } }))
    .get('/favicon.ico', () => new Response(FAVICON, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' } }))
    .get('/services', () => cached(docs.services))
    .get('/.well-known/x402', () => cached(docs.wellKnown))
    .get('/.well-known/x402.json', () => cached(docs.wellKnown))
    .get('/discovery/resources', ({ request }) => json(discoveryDocument(services, config, deps.payTo, new URL(request.url).searchParams, Math.floor(deps.bootedAt / 1000))))
    .get('/stats', () => {
      const rows = deps.stats.rows(30)
      const days = [...new Set(rows.map((r) => r.day))].map((day) => ({ day, ...summarize(rows.filter((r) => r.day === day)) }))
      const perService = [...new Set(rows.map((r) => r.slug))].sort().map((slug) => ({ slug, ...summarize(rows.filter((r) => r.slug === slug)) }))
      return json({ window_days: 30, totals: summarize(rows), days, services: perService })
    })
    .get('/stats/today', () => {
      const day = utcDay(new Date())
      const rows = deps.stats.rows(1).filter((r) => r.day === day)
      return json({ day, totals: summarize(rows), services: rows.map((r) => ({ slug: r.slug, ...summarize([r]) })) })
    })
    .post('/api/demo/explain', ({ request, server }) => serveDemo(bySlug.get(config.demo.service), request, newRequestId(), client(request, server), deps.quota, deps), { parse: 'none' })
    .group('/api', (g) => g.use(paid))
    .group('/api/v1', (g) => g.use(paid))
    // Last, so its hooks stay off every route above; it serves our own document (not a generated one).
    .use(openapi({ path: '/docs', specPath: '/openapi.json', documentation: docs.openapi as never, exclude: { paths: [/.*/] } }))
}
