import type { ChannelFigures } from '../pay/schemes/batch-settlement/serve'
import { Elysia } from 'elysia'
import type { Config } from '../config'
import { usesDevChain } from '../config'
import { PAYMENT_STATES, windowStartMs } from '../db/shared'
import type { Channel, ChannelStore, LedgerStore, StatsStore, Storage } from '../db/store'
import { clientAddress } from '../http/client-ip'
import { readBody } from '../http/body'
import { sameOrigin } from '../http/same-origin'
import { newRequestId } from '../http/respond'
import { reconcile } from '../pay/schemes/exact/reconcile'
import type { Facilitator } from '../pay/types'
import type { ErrorCode, Logger } from '../sdk'
import { clearedCookie, isHttps, readCookie, SESSION_COOKIE, sessionCookie, tokenMatches } from './auth'
import { explorerBase, paymentTxUrl } from './explorer'
import { overview, WINDOW_DAYS } from './overview'
import { observeAnswer } from './error-codes'
import { SignedSessions } from './session'
import { signInPage } from './sign-in'
import consoleHtml from './admin.html' with { type: 'text' }
import consoleCss from './admin.css' with { type: 'text' }
import consoleJs from './admin-site.js' with { type: 'text' }
import { importingUi } from '../site/ui-version'

export interface AdminDeps {
  config: Config
  stats: StatsStore
  log: Logger
  payTo: string
  /** Slugs of the served services (error codes are counted for these only). */
  services?: Array<{ slug: string }>
  /** The console's reads and shared state (error counts, session generation, sign-in throttle) on the storage engine. */
  storage: Pick<Storage, 'admin' | 'errorCounts' | 'sessionGeneration' | 'signIns'>
  /** Present in a booted server; without them the console has no ledger to show. */
  admin?: { ledger: LedgerStore; facilitator: Facilitator }
  /** Payment channels' figures, when this server offers channels (docs/channels.md). */
  channelFigures?: (since?: number) => Promise<ChannelFigures>
  /** The channel store, for the console's channel list. */
  channelStore?: Pick<ChannelStore, 'list' | 'chargedByDay'>
}

/** The console script as served: its import of /ui.js versioned (runtime/site/ui-version.ts). */
const CONSOLE_JS = importingUi(consoleJs as unknown as string)

type Srv = { requestIP(r: Request): { address: string } | null } | null

/** Headers of every admin answer: never cached, never framed, no referrer leaks of /admin URLs. */
const ADMIN_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin', // not no-referrer: with it Chromium sends `Origin: null` on same-origin POSTs
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
}

const send = (body: string, status: number, type: string, extra: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': `${type}; charset=utf-8`, ...ADMIN_HEADERS, ...extra } })
const sendJson = (body: unknown, status = 200, extra: Record<string, string> = {}) =>
  send(JSON.stringify(body), status, 'application/json', extra)
const fail = (
  status: number,
  code: ErrorCode,
  message: string,
  details?: unknown,
  extra: Record<string, string> = {},
) => {
  const id = newRequestId()
  return sendJson({ error: { code, message, ...(details !== undefined ? { details } : {}) }, request_id: id }, status, {
    'x-request-id': id,
    ...extra,
  })
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/
const PAYMENT_PARAMS = new Set(['limit', 'state', 'slug'])

/** Validates ?limit=&state=&slug= (422 listing every bad parameter). */
export function paymentQuery(
  params: URLSearchParams,
):
  | { ok: true; limit: number; state?: string; slug?: string }
  | { ok: false; details: Array<{ path: string; message: string }> } {
  const details: Array<{ path: string; message: string }> = []
  for (const k of new Set(params.keys())) {
    if (!PAYMENT_PARAMS.has(k)) details.push({ path: `/${k}`, message: 'unknown parameter (use limit, state, slug)' })
    else if (params.getAll(k).length > 1) details.push({ path: `/${k}`, message: 'given more than once' })
  }
  const rawLimit = params.get('limit')
  const limit = rawLimit === null ? 50 : /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : NaN
  if (!(limit >= 1 && limit <= 500)) details.push({ path: '/limit', message: 'must be an integer from 1 to 500' })
  const state = params.get('state') ?? undefined
  if (state !== undefined && !(PAYMENT_STATES as readonly string[]).includes(state))
    details.push({ path: '/state', message: `must be one of ${PAYMENT_STATES.join(', ')}` })
  const slug = params.get('slug') ?? undefined
  if (slug !== undefined && !SLUG.test(slug))
    details.push({ path: '/slug', message: 'must be a service slug (lower-case letters, digits, hyphens)' })
  return details.length ? { ok: false, details } : { ok: true, limit, state, slug }
}

/**
 * The operator console: `/admin` (page) and `/admin/api/*` (JSON). Absent (plain 404, like any unknown path) unless
 * ADMIN_TOKEN is set. JSON takes `Authorization: Bearer <token>` or the session cookie set by the sign-in form;
 * POSTs also need a same-origin request (CSRF). Failed sign-ins and bad bearer tokens are throttled per client; a right
 * token or a valid session always passes.
 */
/** A channel as the console lists it: balance, charged, claimed, the pending withdrawal (atomic units as strings). */
const channelRow = (c: Channel) => ({
  id: c.id,
  network: c.network,
  payer: c.payer,
  balance: String(c.balance),
  charged: String(c.charged),
  claimed: String(c.claimed),
  unclaimed: String(c.charged - c.claimed),
  withdraw_requested_at: c.withdrawRequestedAt || null,
  last_request_at: c.lastRequestAt,
})

export function adminRoutes(deps: AdminDeps) {
  const plugin = new Elysia({ name: 'admin' })
  const { config } = deps
  if (!config.adminToken) return plugin
  const token = config.adminToken
  const sessions = new SignedSessions(token, deps.storage.sessionGeneration)
  // Failed sign-ins per client: on the storage (shared by every instance on Postgres; in this process on SQLite).
  const throttle = deps.storage.signIns
  const queries = deps.storage.admin
  const errorCodes = deps.storage.errorCounts
  const known = new Set((deps.services ?? []).map((s) => s.slug))
  const devChain = usesDevChain(config)
  const explorer = explorerBase(config.networks[0].network, devChain)
  const origins = config.allowedOrigins
  const client = (req: Request, server: Srv) =>
    clientAddress(server?.requestIP(req)?.address, req.headers.get('x-forwarded-for'), config.trustedProxies)
  /** Whether `who` used up its failed tries; 'unknown' when the shared counter does not answer (then: fail closed). */
  const blocked = async (who: string): Promise<boolean | 'unknown'> => {
    try {
      return await throttle.blocked(who)
    } catch (e) {
      deps.log.warn('admin: sign-in throttle unreadable', { error: String(e) })
      return 'unknown'
    }
  }
  /** Counts a failed try (the answer is a refusal either way; a counter that does not answer is logged). */
  const failed = async (who: string) => {
    try {
      await throttle.hit(who)
    } catch (e) {
      deps.log.warn('admin: sign-in throttle not updated', { error: String(e) })
    }
  }

  const unavailable = () =>
    fail(503, 'DATABASE_UNAVAILABLE', 'The database is not answering, so the session cannot be checked.', undefined, {
      'retry-after': '5',
    })
  /** The session cookie's state: signed in, not, or unknown (the database did not answer: fail closed). */
  const session = async (req: Request): Promise<boolean | 'unknown'> => {
    try {
      return await sessions.valid(readCookie(req.headers.get('cookie'), SESSION_COOKIE))
    } catch (e) {
      deps.log.warn('admin: session check failed', { error: String(e) })
      return 'unknown'
    }
  }
  /**
   * The refusal of a wrong credential from `who`: 401 (counted) while the client has tries left, then 429 with
   * Retry-After; 503 when the shared count cannot be read (fail closed). Only wrong credentials reach it: a right one
   * always passes, so nobody sharing the operator's address can lock the operator out.
   */
  const refuseWrong = async (
    who: string,
    wrong: () => Response,
    tooMany: (retryAfter: string) => Response,
    unreadable: () => Response = unavailable,
  ) => {
    const over = await blocked(who)
    if (over === 'unknown') return unreadable()
    if (over) return tooMany(String(await throttle.retryAfter(who)))
    await failed(who)
    return wrong()
  }
  /** null when the request is authenticated; otherwise the refusal to send. */
  const authenticate = async (req: Request, server: Srv): Promise<{ refusal: Response | null; cookie: boolean }> => {
    const auth = req.headers.get('authorization')
    if (auth !== null) {
      const m = auth.match(/^Bearer\s+(\S+)\s*$/i)
      if (m && tokenMatches(m[1], token)) return { refusal: null, cookie: false }
      const who = client(req, server)
      const refusal = await refuseWrong(
        who,
        () => {
          deps.log.warn('admin: bad bearer token', { client: who })
          return fail(401, 'UNAUTHORIZED', 'The bearer token is not valid.', undefined, {
            'www-authenticate': 'Bearer realm="admin"',
          })
        },
        (retryAfter) =>
          fail(429, 'TOO_MANY_ATTEMPTS', 'Too many failed sign-ins from this client; wait and try again.', undefined, {
            'retry-after': retryAfter,
          }),
      )
      return { refusal, cookie: false }
    }
    const signedIn = await session(req)
    if (signedIn === 'unknown') return { refusal: unavailable(), cookie: false }
    if (signedIn) return { refusal: null, cookie: true }
    return {
      refusal: fail(401, 'UNAUTHORIZED', 'Sign in at /admin or send Authorization: Bearer <ADMIN_TOKEN>.', undefined, {
        'www-authenticate': 'Bearer realm="admin"',
      }),
      cookie: false,
    }
  }
  const csrf = (req: Request, cookie: boolean) =>
    sameOrigin(req, origins, cookie)
      ? null
      : fail(403, 'CROSS_ORIGIN', 'This action must come from the console page itself (same origin).')

  return (
    plugin
      // Counts error answers by code for the console (global: it sees the /api routes registered after this plugin).
      .mapResponse({ as: 'global' }, ({ request, responseValue }) => {
        // Counting must never change an answer: a failure here is logged and the answer goes out as it is.
        try {
          observeAnswer(errorCodes, known, request, responseValue)
        } catch (e) {
          deps.log.error('admin: error count not recorded', { error: String((e as Error)?.stack ?? e) })
        }
      })
      .get('/admin', async ({ request }) => {
        const signedIn = await session(request)
        if (signedIn === 'unknown')
          return send(signInPage('The database is not answering; try again shortly.'), 503, 'text/html', {
            'retry-after': '5',
          })
        return send(signedIn ? (consoleHtml as unknown as string) : signInPage(), 200, 'text/html')
      })
      .get('/admin/admin.css', () => send(consoleCss as unknown as string, 200, 'text/css'))
      .get('/admin/admin.js', () => send(CONSOLE_JS, 200, 'text/javascript'))
      .post(
        '/admin/login',
        async ({ request, server }) => {
          const who = client(request, server)
          const secure = isHttps(request, config.trustedProxies)
          if (!sameOrigin(request, origins, true))
            return send(signInPage('This form must be sent from this site.'), 403, 'text/html')
          let presented: string | null = null
          try {
            presented = new URLSearchParams(await readBody(request, 4096, 10_000)).get('token')
          } catch {
            return send(signInPage('The form could not be read.'), 400, 'text/html')
          }
          if (!tokenMatches(presented, token))
            return refuseWrong(
              who,
              () => {
                deps.log.warn('admin: failed sign-in', { client: who })
                return send(signInPage('That token is not right.'), 401, 'text/html')
              },
              (retryAfter) =>
                send(signInPage('Too many failed attempts. Wait a few minutes.'), 429, 'text/html', {
                  'retry-after': retryAfter,
                }),
              () =>
                send(signInPage('The database is not answering; try again shortly.'), 503, 'text/html', {
                  'retry-after': '5',
                }),
            )
          let s: { value: string; maxAgeSeconds: number }
          try {
            s = await sessions.create()
          } catch (e) {
            deps.log.warn('admin: session not created', { error: String(e) })
            return send(signInPage('The database is not answering; try again shortly.'), 503, 'text/html', {
              'retry-after': '5',
            })
          }
          deps.log.info('admin: signed in', { client: who })
          return send('', 303, 'text/plain', {
            location: '/admin',
            'set-cookie': sessionCookie(s.value, s.maxAgeSeconds, secure),
          })
        },
        { parse: 'none' },
      )
      .post(
        '/admin/logout',
        async ({ request }) => {
          if (!sameOrigin(request, origins, true))
            return send(signInPage('This form must be sent from this site.'), 403, 'text/html')
          // Only a signed-in browser can end the sessions (else anyone could sign the operator out).
          const signedIn = await session(request)
          if (signedIn === 'unknown') return unavailable()
          if (signedIn) {
            try {
              await sessions.endAll()
            } catch (e) {
              deps.log.warn('admin: sign-out not recorded', { error: String(e) })
              return unavailable()
            }
            deps.log.info('admin: signed out (every console session ended)')
          }
          return send('', 303, 'text/plain', {
            location: '/admin',
            'set-cookie': clearedCookie(isHttps(request, config.trustedProxies)),
          })
        },
        { parse: 'none' },
      )
      .get('/admin/api/payments', async ({ request, server }) => {
        const a = await authenticate(request, server)
        if (a.refusal) return a.refusal
        const q = paymentQuery(new URL(request.url).searchParams)
        if (!q.ok) return fail(422, 'INVALID_QUERY', 'Some query parameters are not valid.', q.details)
        const payments = (await queries.payments(q)).map((p) => ({ ...p, explorer_url: paymentTxUrl(p, devChain) }))
        return sendJson({ count: payments.length, explorer, payments })
      })
      .get('/admin/api/payments/:id', async ({ request, server, params }) => {
        const a = await authenticate(request, server)
        if (a.refusal) return a.refusal
        const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : NaN
        if (!Number.isSafeInteger(id))
          return fail(422, 'INVALID_QUERY', 'The payment id must be a positive integer.', [
            { path: '/id', message: 'not an integer' },
          ])
        const row = await queries.payment(id)
        if (!row) return fail(404, 'NOT_FOUND', `No payment ${id}.`)
        return sendJson({
          payment: { ...row, explorer_url: paymentTxUrl(row, devChain) },
          events: await queries.events(id),
        })
      })
      .get('/admin/api/channels', async ({ request, server }) => {
        const a = await authenticate(request, server)
        if (a.refusal) return a.refusal
        if (!deps.channelFigures || !deps.channelStore)
          return sendJson({ offered: false, figures: null, count: 0, channels: [] })
        const channels = (await deps.channelStore.list(100)).map(channelRow)
        // The figures over the overview's window (its exact revenue and gas): both schemes compared on the same days.
        const figures = await deps.channelFigures(windowStartMs(WINDOW_DAYS, new Date()))
        return sendJson({ offered: true, window_days: WINDOW_DAYS, figures, count: channels.length, channels })
      })
      .get('/admin/api/overview', async ({ request, server }) => {
        const a = await authenticate(request, server)
        if (a.refusal) return a.refusal
        return sendJson(
          await overview({
            queries,
            stats: deps.stats,
            facilitator: deps.admin?.facilitator,
            network: config.networks[0].network,
            asset: config.networks[0].asset,
            payTo: deps.payTo,
            devChain,
            demoLimit: config.demo.dailyLimit,
            demoService: config.demo.service,
            errorCodes: await errorCodes.rows(30),
            channels: deps.channelStore,
            ledger: deps.admin?.ledger,
          }),
        )
      })
      .post(
        '/admin/api/reconcile',
        async ({ request, server }) => {
          const a = await authenticate(request, server)
          if (a.refusal) return a.refusal
          const refused = csrf(request, a.cookie)
          if (refused) return refused
          if (!deps.admin) return fail(503, 'NOT_AVAILABLE', 'No ledger is attached to this server.')
          const result = await reconcile(deps.admin.ledger, deps.admin.facilitator, deps.log)
          deps.log.info('admin: reconcile now', result)
          return sendJson({ reconciled: result, payment_states: await queries.stateCounts() })
        },
        { parse: 'none' },
      )
      .all('/admin/*', () => fail(404, 'NOT_FOUND', 'No such console route.'))
  )
}
