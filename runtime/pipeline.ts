import type { CatalogService } from './catalog'
import type { Config } from './config'
import type { StatsStore, ThrottleStore } from './db/store'
import { readBody, parseJson, requireJson } from './http/body'
import { checkBeforePayment } from './input/before-payment'
import { BASE_HEADERS, errorResponse, json } from './http/respond'
import { requestUrl } from './http/request-url'
import { challenge, requirementsOfPayment } from './pay/server/challenge'
import { decodePayment, PaymentRefused } from './pay/decode'
import { FacilitatorUnavailable, type PaymentGate, type Ticket } from './pay/server/gate'
import { assertFinite, isTier, ServiceError, TIERS, type Logger, type ServiceContext, type TierName } from './sdk'
import { prepareInputReport } from './validate'
import { ignoredFieldsHeader } from './input/ignored-header'
import { ClientGone, unlessDisconnected } from './http/disconnect'
import type { DecodedPayment } from './pay/types'
import { paymentIdentifierOf } from './pay/server/payment-id'
import { requestHash, type Collected, type PaidResults } from './pay/server/kept-results'
import { collectedResponse } from './pay/server/collected-answer'
import { InFlightCalls } from './pay/server/running-calls'
import { asServiceError } from './http/unexpected'
import { REASON } from './pay/reasons'
import type { ReceiptIssuer } from './pay/server/receipts'
import { settleKept, signedCollection } from './pay/server/settle-kept'
import { wantsEventStream } from './http/sse'
import { streamPaid } from './stream/paid'

export interface PipelineDeps {
  config: Config
  /** Costly payment refusals per client (and payer, counted by the gate) per minute; past the limit, 429 before any work. */
  refusals: ThrottleStore
  gate: PaymentGate
  stats: StatsStore
  payTo: string
  log: Logger
  /** Paid results kept for collection again (same payment or payment identifier, same request). */
  results: PaidResults
  /** Signs the receipt of every paid answer (runtime/pay/server/receipts.ts). */
  receipts: ReceiptIssuer
  /** Builds the handler context (fetch, upstreams, model) for one call. */
  context(svc: CatalogService, tier: TierName, requestId: string, signal: AbortSignal): ServiceContext
}

/** The tier of a request: `?tier=` wins over the body's `tier`; utilities have exactly one. */
export function resolveTier(svc: CatalogService, url: URL, rawBody: string): TierName {
  if (svc.manifest.kind !== 'tiered') return svc.defaultTier
  let tier: unknown = url.searchParams.get('tier')
  if (tier === null && rawBody.includes('"tier"')) {
    try {
      tier = (JSON.parse(rawBody) as { tier?: unknown })?.tier
    } catch {
      /* the body is validated later */
    }
  }
  if (tier === null || tier === undefined) return 'standard'
  if (typeof tier === 'string') tier = tier.trim().toLowerCase() // enums match case-insensitively (runtime/input)
  if (!isTier(tier)) {
    throw new ServiceError(
      422,
      'INVALID_TIER',
      `tier must be one of ${TIERS.join(', ')} (got ${JSON.stringify(tier)})`,
      { details: [{ path: '/tier', message: 'unknown tier' }] },
    )
  }
  return tier as TierName
}

const challengeCache = new WeakMap<
  CatalogService,
  Map<string, ReturnType<typeof challenge> & { bodyText: string; headers: Record<string, string> }>
>()

/** The unpaid challenge of a service/tier/resource, built once (it is deterministic) and reused. */
function cachedChallenge(svc: CatalogService, tier: TierName, resource: string, deps: PipelineDeps) {
  let m = challengeCache.get(svc)
  if (!m) challengeCache.set(svc, (m = new Map()))
  const key = `${tier} ${resource}`
  let c = m.get(key)
  if (!c) {
    const built = challenge(deps.config, svc, tier, deps.payTo, resource)
    c = {
      ...built,
      bodyText: JSON.stringify(built.body),
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...BASE_HEADERS,
        'payment-required': built.header,
        'cache-control': 'no-store',
      },
    }
    if (m.size >= 32) m.delete(m.keys().next().value!)
    m.set(key, c)
  }
  return c
}

/** Runs a handler within the service's time budget; a ServiceError passes through, anything else becomes 500. */
export async function runHandler(
  svc: CatalogService,
  input: unknown,
  ctx: ServiceContext,
  abort: AbortController,
): Promise<unknown> {
  const budget = svc.manifest.timeoutMs ?? 10_000
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort()
      reject(new ServiceError(504, 'HANDLER_TIMEOUT', `${svc.slug} did not finish within ${budget} ms`))
    }, budget)
  })
  try {
    const out = await Promise.race([Promise.resolve().then(() => svc.handler!(input as never, ctx)), timeout])
    assertFinite(out)
    if (svc.manifest.kind !== 'tiered') return out
    const r = out as { result: string; model?: string; tokens_used: number }
    return {
      service: svc.slug,
      tier: ctx.tier,
      result: r.result,
      model: r.model ?? svc.model,
      tokens_used: r.tokens_used,
      request_id: ctx.requestId,
    }
  } finally {
    clearTimeout(timer)
  }
}

/** Errors to answers: the shared database (DATABASE_URL) down or too slow fails closed as a retryable 503. */
export const toServiceError = (e: unknown, log: Logger, requestId: string): ServiceError =>
  asServiceError(e, log, { request_id: requestId }, 'unhandled error', {
    code: 'PAYMENT_UNAVAILABLE',
    message: 'Payments are unavailable right now (database); nothing was charged. Retry shortly.',
  })

/**
 * One paid call, framework-free: availability -> body cap -> tier -> body validation -> 402 challenge when
 * unpaid -> payment verification and reservation -> handler -> settle only on success.
 */
/** Paid calls running in this process (per authorization and request), for the identical retry of a timed-out client. */
const inFlight = new InFlightCalls()

export async function servePaid(
  svc: CatalogService,
  req: Request,
  requestId: string,
  client: string,
  deps: PipelineDeps,
): Promise<Response> {
  const { config, gate, stats, log } = deps
  let ticket: Ticket | undefined
  let done: (() => void) | undefined
  try {
    if (svc.unavailableReason)
      throw new ServiceError(svc.unavailableReason.status, svc.unavailableReason.code, svc.unavailableReason.message)
    const url = requestUrl(req)
    const v2 = req.headers.get('payment-signature')
    const header = v2 ?? req.headers.get('x-payment')
    const resource = `${config.provider.apiBase}${url.pathname}${url.search}`
    const raw = await readBody(req, config.bodyLimitBytes, config.bodyTimeoutMs)
    const tier = resolveTier(svc, url, raw)
    const c = cachedChallenge(svc, tier, resource, deps)
    if (!header) {
      // A body the paid call would refuse is refused now, before anyone signs; empty or `{}` reads the price.
      checkBeforePayment(svc.manifest.input, req, raw, svc.manifest.examples[0]?.input)
      return new Response(c.bodyText, { status: 402, headers: { ...c.headers, 'x-request-id': requestId } })
    }
    if (await deps.refusals.blocked(client)) {
      throw new ServiceError(
        429,
        'TOO_MANY_INVALID_PAYMENTS',
        'Too many refused payments from this client; slow down.',
        { headers: { 'retry-after': String(await deps.refusals.retryAfter(client)) } },
      )
    }
    requireJson(req)
    const { input, ignored } = prepareInputReport(svc.manifest.input, parseJson(raw))
    // A repeated payment (same authorization, or same payment identifier) for the same request collects its kept result.
    const version = v2 ? 2 : 1
    const hash = requestHash(svc.slug, tier, raw)
    const refuse = (reason: string, message: string, headers: Record<string, string>) => {
      const again = challenge(config, svc, tier, deps.payTo, resource, reason)
      return json({ ...again.body, message }, 402, requestId, {
        'payment-required': again.header,
        'cache-control': 'no-store',
        ...headers,
      })
    }
    // Decoded once here; the gate checks this same decoded payment.
    let decoded: DecodedPayment
    try {
      decoded = decodePayment(header, version)
    } catch (e) {
      if (e instanceof PaymentRefused) return refuse(e.reason, e.message, {})
      throw e
    }
    const key = paymentIdentifierOf(decoded)
    // With several networks (NETWORKS): the requirements of the network the payment names.
    const requirements = requirementsOfPayment(c.accepts, decoded)
    const purchase = { resourceUrl: resource, service: svc.slug, tier, requestHash: hash, requestId }
    const collect = (got: Collected) => signedCollection(deps, got, purchase, requirements)
    if (key) {
      const got = await deps.results.byIdentifier(decoded, key, requirements, hash)
      if (got) return collectedResponse(await collect(got), requestId, version, refuse)
    }
    // Marked before verification: an identical retry while this call verifies is told to wait, not to sign again.
    done = inFlight.start(decoded, hash) ?? undefined
    try {
      ticket = await gate.authorize(decoded, requirements, svc.slug, tier, requestId, client)
    } catch (e) {
      if (e instanceof PaymentRefused) {
        if (e.reason === REASON.authorizationAlreadyUsed || e.reason === REASON.validBefore) {
          const got = await deps.results.byAuthorization(decoded, requirements, hash)
          if (got) return collectedResponse(await collect(got), requestId, version, refuse)
          // The same payment for the same request is still running here (the client gave up waiting): wait for it.
          if (e.reason === REASON.authorizationAlreadyUsed && !done && inFlight.running(decoded, hash))
            return refuse(
              REASON.settlementPending,
              'This payment is being processed for this identical request; send it again in a few seconds to collect the result.',
              { 'retry-after': '2' },
            )
        }
        return refuse(e.reason, e.message, {})
      }
      if (e instanceof FacilitatorUnavailable)
        throw new ServiceError(503, 'PAYMENT_UNAVAILABLE', e.message, {
          headers: { 'retry-after': '5' },
          retryable: true,
        })
      throw e
    }
    if (key) {
      const held = await deps.results.claim(ticket, key, hash)
      if (held) {
        await gate.release(ticket, 'payment identifier already used')
        ticket = undefined
        return collectedResponse(await collect(held), requestId, version, refuse)
      }
    }
    if (wantsEventStream(req) && svc.manifest.needs?.includes('model')) {
      // Streamed (Server-Sent Events): runs, settles after the complete result and releases like below.
      const t = ticket
      const end = done
      ticket = undefined
      done = undefined
      const headers = ignoredFieldsHeader(ignored)
      const call = { svc, tier, input, ticket: t, key, hash, resource, requestId, refuse, headers, done: end }
      return streamPaid(req, call, deps)
    }
    const abort = new AbortController()
    let out: unknown
    try {
      if (req.signal.aborted) throw new ClientGone()
      out = await unlessDisconnected(
        runHandler(svc, input, deps.context(svc, tier, requestId, AbortSignal.any([abort.signal, req.signal])), abort),
        req.signal,
      )
      if (req.signal.aborted) throw new ClientGone()
    } catch (e) {
      await deps.results.discard(ticket)
      if (e instanceof ClientGone) {
        // Nobody is there to receive the result: nothing is settled; the authorization may be used again, but the
        // run counts as a failed one (the work was done).
        abort.abort()
        await gate.failed(ticket, 499, 'CLIENT_CLOSED_REQUEST')
        ticket = undefined
        log.info('client disconnected before the answer; payment released', {
          request_id: requestId,
          service: svc.slug,
        })
        return errorResponse(
          new ServiceError(
            499,
            'CLIENT_CLOSED_REQUEST',
            'The client disconnected before the answer was ready; nothing was charged.',
          ),
          requestId,
        )
      }
      const err = toServiceError(e, log, requestId)
      await gate.failed(ticket, err.status, err.code)
      ticket = undefined
      stats.record(svc.slug, { calls: 1, errors: 1 })
      return errorResponse(err, requestId)
    }
    stats.record(svc.slug, { calls: 1, tokens: (out as { tokens_used?: number })?.tokens_used ?? 0 })
    const body = JSON.stringify(out)
    // Kept before settling, so a payment whose settlement ends up pending can collect it once reconciled.
    await deps.results.keep(ticket, key, hash, body)
    const t = ticket
    ticket = undefined
    const settled = await settleKept(deps, t, purchase)
    if (!settled.ok) return refuse(settled.reason, settled.message, settled.headers)
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...BASE_HEADERS,
        'x-request-id': requestId,
        [settled.headerName]: settled.header,
        'cache-control': 'private, no-store',
        ...ignoredFieldsHeader(ignored),
      },
    })
  } catch (e) {
    if (ticket) {
      const t = ticket
      await deps.results.discard(t)
      await gate
        .release(t, 'request failed before settlement')
        .catch((re) =>
          log.error('release failed; the reconciler releases it', { request_id: requestId, error: String(re) }),
        )
    }
    const err = toServiceError(e, log, requestId)
    if (err.status >= 500 && !svc.unavailableReason) stats.record(svc.slug, { errors: 1 })
    return errorResponse(err, requestId)
  } finally {
    done?.()
  }
}
