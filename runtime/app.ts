import { Elysia } from 'elysia'
import type { CatalogService } from './catalog/index'
import type { LedgerStore, QuotaStore, Storage } from './db/store'
import { loadStatsReport } from './db/report'
import { clientAddress } from './http/client-ip'
import { hasValidUrl, invalidHost, requestUrl } from './http/request-url'
import { errorResponse, json, newRequestId, PREFLIGHT_HEADERS } from './http/respond'
import { healthRoute } from './http/health'
import { m } from './ops/metrics'
import { discoveryDocument, servicesDocument, wellKnownDocument } from './discovery/surfaces'
import { openapiDocument } from './discovery/openapi'
import { agentOpenapiDocument } from './discovery/openapi-agent'
import { ICON_SVG } from './discovery/icon'
import { ownershipProofs } from './discovery/ownership'
import { servePaid, serveRefund, type PipelineDeps } from './call/pipeline'
import { serveDemo } from './call/demo'
import { siteRoutes } from './site/routes'
import type { adminRoutes, AdminDeps } from './admin/routes'
import { lazyDiscoveryRoutes, lazyDocsRoutes, lazyMcpRoutes } from './lazy-routes'
import { devPayerRoutes, type DevPayer } from './site/dev-payer'
import type { devSolanaPayerRoutes, DevSolanaPayer } from './site/dev-payer-solana'
import { ServiceError } from './sdk'
import { errorAnswer } from './http/error-answer'
import type { FacilitatorHealth } from './pay/types'
import type { ChannelFigures } from './pay/schemes/batch-settlement/serve'
import type { ChannelOffer } from './pay/schemes/batch-settlement/scheme'
import { receiptRoutes } from './pay/server/receipt-routes'
import { lazyA2aRoutes } from './a2a/lazy'

export const VERSION = '1.0.0'
const FAVICON = ICON_SVG

export interface AppDeps extends PipelineDeps {
  services: CatalogService[]
  quota: QuotaStore
  /** The storage engine (its kind is shown in /health; its ping decides ok/degraded). */
  storage: Storage
  ledger: LedgerStore
  bootedAt: number
  /** The settlement side's state (remote facilitators and their breakers), shown in /health. */
  facilitatorHealth?: () => FacilitatorHealth | undefined
  /** The ledger and payment backend for the operator console (/admin, only when ADMIN_TOKEN is set). */
  admin?: AdminDeps['admin']
  /** The dev chain's demo payer, for paying from the try-it panel (only honoured on the embedded dev chain). */
  devPayer?: DevPayer
  /** The Solana dev chain's demo payer, for paying on Solana from the try-it panel (only on the embedded dev chains). */
  devSolanaPayer?: DevSolanaPayer
  /** The Solana demo payer's routes, loaded by boot only with that payer (its module loads @solana/kit). */
  devSolanaPayerRoutes?: typeof devSolanaPayerRoutes
  /** Payment channels (x402 `batch-settlement`) where this server serves them: their terms and offer, published. */
  channels?: ChannelOffer
  /** Payment channels' figures, all time for /stats, since a moment (ms) for the console (when this server serves channels). */
  channelFigures?: (since?: number) => Promise<ChannelFigures>
  /** The console's routes, loaded by boot only when ADMIN_TOKEN is set (absent: /admin does not exist). */
  adminRoutes?: typeof adminRoutes
  /** /metrics, /reliability and the HTTP status counter (runtime/ops), built by boot only when configured. */
  ops?: Elysia<any>
}

/**
 * The first hook of every request: a malformed Host header leaves a request without a URL, refused in the one error
 * shape. Written so that Elysia does not take it for async: it judges a hook by its source (`return f(` or `=> f(`
 * reads as async), and an async first hook makes every route's handler async (a promise and a turn per request,
 * /health included).
 */
function refuseInvalidHost({ request }: { request: Request }): Response | undefined {
  let refusal: Response | undefined // not `return f(…)` (see above), which Bun's transpiler would make of a const
  if (!hasValidUrl(request)) refusal = errorResponse(invalidHost(request), newRequestId())
  return refusal
}

/** The HTTP app: public GET surfaces, the demo, and every service under /api and /api/v1. No listen(). */
export function createApp(deps: AppDeps) {
  const { services, config } = deps
  const bySlug = new Map(services.map((s) => [s.slug, s]))
  const started = Date.now()
  const dbKind = deps.storage.kind
  const available = services.filter((s) => s.available).length
  const health = healthRoute({
    report: (dbOk) => {
      const facilitator = deps.facilitatorHealth?.()
      const degraded = !dbOk || (facilitator !== undefined && (!facilitator.ok || !facilitator.canPay))
      return {
        status: degraded ? 'degraded' : 'ok',
        version: VERSION,
        uptime_seconds: Math.round((Date.now() - started) / 1000),
        database: dbOk ? 'ok' : 'error',
        database_kind: dbKind,
        services: services.length,
        available_services: available,
        network: config.networks[0].network,
        ...(config.networks.length > 1 ? { networks: config.networks.map((n) => n.network) } : {}),
        pay_to: deps.payTo,
        ...(facilitator ? { facilitator } : {}),
      }
    },
    ping: deps.storage.ping,
    count: deps.ops ? (status) => m.http.inc({ route: 'health', status: String(status) }) : undefined,
    log: deps.log,
  })
  // The static documents are built on their first request, not at boot.
  // Built once, and again when payment channels are added on a network while running (their `version`).
  const once = <T>(make: () => T) => {
    let v: T | undefined
    let at = 0
    return () => {
      const version = deps.channels?.version ?? 0
      if (v === undefined || at !== version) {
        v = make()
        at = version
      }
      return v
    }
  }
  const docs = {
    services: once(() => JSON.stringify(servicesDocument(services, config, deps.channels?.terms))),
    wellKnown: once(async () =>
      JSON.stringify(
        wellKnownDocument(
          services,
          config,
          deps.payTo,
          deps.channels?.terms,
          await ownershipProofs(config, deps.payTo),
        ),
      ),
    ),
    openapi: once(() => openapiDocument(services, config, VERSION, deps.channels?.terms)),
    agentOpenapi: once(() => JSON.stringify(agentOpenapiDocument(services, config, VERSION, deps.channels?.terms))),
  }
  const fullOpenapi = once(() => JSON.stringify(docs.openapi()))
  // /stats counts every scheme: the channel charges and transactions beside the exact settlements (docs/channels.md).
  const channelBooks = deps.channels ? deps.storage.channels : undefined
  const cached = (body: string) =>
    new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8', ...PREFLIGHT_HEADERS } })
  const client = (req: Request, server: { requestIP(r: Request): { address: string } | null } | null) =>
    clientAddress(server?.requestIP(req)?.address, req.headers.get('x-forwarded-for'), config.trustedProxies)

  // The paid services: one parameterised route per method and prefix (/api and /api/v1), the service found by its
  // slug, rather than a route per service registered twice (113 services: ~450 routes, ~10 % of a boot's CPU).
  const unknownService = (request: Request) =>
    errorResponse(
      new ServiceError(
        404,
        'NOT_FOUND',
        `No route for ${request.method} ${new URL(request.url).pathname}. See /services.`,
      ),
      newRequestId(),
    )
  type Ctx = { request: Request; server: Parameters<typeof client>[1]; params: { slug: string } }
  const paidPost = ({ request, server, params }: Ctx) => {
    const s = bySlug.get(params.slug)
    if (!s) return unknownService(request)
    return servePaid(s, request, newRequestId(), () => client(request, server), deps)
  }
  // Payment channels: the cooperative refund (and the official client's GET probe before it) on the paid route.
  const paidGet = ({ request, server, params }: Ctx) => {
    const s = bySlug.get(params.slug)
    if (!s) return unknownService(request)
    return serveRefund(s, request, newRequestId(), () => client(request, server), deps)
  }
  const paid = new Elysia({ name: 'paid-services' })
  for (const prefix of ['/api', '/api/v1']) {
    paid.post(`${prefix}/:slug`, paidPost, { parse: 'none', detail: { hide: true } })
    if (deps.channels) paid.get(`${prefix}/:slug`, paidGet, { detail: { hide: true } })
  }

  return (
    // GET /health is also one of Bun.serve's own routes (given to Bun by `listen` with the routes Elysia compiles,
    // taking /health's place): a health probe never enters Elysia (runtime/http/health.ts). `app.handle` (tests)
    // still routes it through Elysia, to the same answer.
    new Elysia({ serve: { routes: { '/health': { GET: health.direct } } } })
      // Before any route or hook (and it turns off Bun's static routes, which would answer without running any):
      // a malformed Host header leaves a request without a URL, refused here in the one error shape.
      .onRequest(refuseInvalidHost)
      .options('*', () => new Response(null, { status: 204, headers: PREFLIGHT_HEADERS }))
      .onError(({ code, request, error }) => {
        const id = newRequestId()
        if (!hasValidUrl(request)) return errorResponse(invalidHost(request), id)
        if (code === 'NOT_FOUND') {
          const slug = new URL(request.url).pathname.match(/^\/api\/(?:v1\/)?([^/]+)\/?$/)?.[1]
          if (slug && bySlug.has(slug))
            return errorResponse(
              new ServiceError(405, 'METHOD_NOT_ALLOWED', `Use POST for /api/${slug}.`, {
                headers: { allow: 'POST, OPTIONS' },
              }),
              id,
            )
          return errorResponse(
            new ServiceError(
              404,
              'NOT_FOUND',
              `No route for ${request.method} ${new URL(request.url).pathname}. See /services.`,
            ),
            id,
          )
        }
        return errorAnswer(error, code, id, deps.log)
      })
      .use(deps.ops ?? new Elysia())
      .use(siteRoutes)
      .use(lazyDiscoveryRoutes(services, config, deps.payTo, deps.bootedAt, deps.log, deps.channels))
      .use(
        deps.adminRoutes
          ? deps.adminRoutes({ ...deps, channelStore: deps.channels ? deps.storage.channels : undefined })
          : new Elysia(),
      )
      .use(devPayerRoutes(deps))
      .use(deps.devSolanaPayerRoutes ? deps.devSolanaPayerRoutes(deps) : new Elysia())
      .use(receiptRoutes(deps.receipts, config.bodyLimitBytes, config.bodyTimeoutMs, deps.log))
      .get('/health', health.answer)
      .get(
        '/favicon.svg',
        () =>
          new Response(FAVICON, {
            headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' },
          }),
      )
      .get(
        '/favicon.ico',
        () =>
          new Response(FAVICON, {
            headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' },
          }),
      )
      .get('/services', () => cached(docs.services()))
      .get('/openapi.json', () => cached(docs.agentOpenapi()))
      .get('/openapi/full.json', () => cached(fullOpenapi()))
      .get('/.well-known/x402', async () => cached(await docs.wellKnown()))
      .get('/.well-known/x402.json', async () => cached(await docs.wellKnown()))
      .get('/discovery/resources', ({ request }) =>
        json(
          discoveryDocument(
            services,
            config,
            deps.payTo,
            requestUrl(request).searchParams,
            Math.floor(deps.bootedAt / 1000),
            deps.channels,
          ),
        ),
      )
      .get('/stats', async () => {
        const report = await loadStatsReport(
          deps.stats,
          deps.ledger,
          30,
          config.ethUsd,
          config.networks[0].network,
          new Date(),
          channelBooks,
        )
        // Payment channels (docs/channels.md): all-time figures, apart from the exact revenue above.
        return json(deps.channelFigures ? { ...report, channels: publicFigures(await deps.channelFigures()) } : report)
      })
      .get('/stats/today', async () => {
        const r = await loadStatsReport(
          deps.stats,
          deps.ledger,
          1,
          config.ethUsd,
          config.networks[0].network,
          new Date(),
          channelBooks,
        )
        return json({
          day: new Date().toISOString().slice(0, 10),
          network: r.network,
          totals: r.totals,
          schemes: r.schemes,
          services: r.services,
          networks: r.networks,
        })
      })
      .post(
        '/api/demo/explain',
        ({ request, server }) =>
          serveDemo(
            bySlug.get(config.demo.service),
            request,
            newRequestId(),
            client(request, server),
            deps.quota,
            deps,
          ),
        { parse: 'none' },
      )
      .use(paid)
      .use(lazyMcpRoutes(deps, client, VERSION))
      .use(lazyA2aRoutes(deps, client, VERSION))
      // The OpenAPI viewer serves our own document (not a generated one), from its own app built on first use.
      .use(lazyDocsRoutes(docs.openapi, deps.log))
  )
}

/** /stats is public: the sponsored payers' addresses are shortened (the console shows them whole). */
function publicFigures<F extends ChannelFigures & { networks?: ChannelFigures[] }>(f: F): F {
  const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`
  const one = <T extends ChannelFigures>(x: T): T => ({
    ...x,
    sponsored_payers: x.sponsored_payers.map((p) => ({ ...p, payer: short(p.payer) })),
  })
  return { ...one(f), ...(f.networks ? { networks: f.networks.map(one) } : {}) }
}
