/**
 * The paid call seen from the resource server, entered through two doors (as x402's own server enters its core
 * twice): `admit` before the handler, `finish` after it. The pipeline (runtime/pipeline.ts) reads the HTTP request,
 * calls `admit`, runs the handler only for `admitted`, and hands the outcome to `finish` (or `finishStreamed` for
 * Server-Sent Events). How a second scheme plugs into the same doors: runtime/pay/README.md.
 * @module pay/server/paid-call
 */
import type { CatalogService } from '../../catalog'
import type { Config } from '../../config'
import type { StatsStore, ThrottleStore } from '../../db/store'
import { asServiceError } from '../../http/unexpected'
import { BASE_HEADERS, errorResponse, json } from '../../http/respond'
import { ignoredFieldsHeader } from '../../input/ignored-header'
import { ServiceError, type Logger, type TierName } from '../../sdk'
import { decodePayment, PaymentRefused } from '../wire'
import { REASON } from '../reasons'
import type { DecodedPayment } from '../types'
import { challenge, requirementsOfPayment } from './challenge'
import { collectedResponse } from './collected-answer'
import { FacilitatorUnavailable, type PaymentGate, type Ticket } from './gate'
import { requestHash, type Collected, type PaidResults } from './kept-results'
import { paymentIdentifierOf } from './payment-id'
import type { ReceiptIssuer } from './receipts'
import { RunningCalls } from './running-calls'
import { settleKept, signedCollection, type Purchase } from './settle-kept'

export interface PaidCallDeps {
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
}

/** A paid request as the pipeline read it (body, tier, resource), before any payment check. */
export interface PaidRequest {
  svc: CatalogService
  tier: TierName
  /** The paid resource: the URL the 402 challenge names. */
  resource: string
  /** The PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1) header, or null for an unpaid request. */
  payment: { header: string; version: 1 | 2 } | null
  /** The raw body, whose hash (with service and tier) identifies the request a payment paid for. */
  raw: string
  requestId: string
  /** The caller's address, for the refusal throttle. */
  client: string
  /** The validated input (throws the 4xx of a bad body); read once the client is not throttled, before decoding. */
  input(): { input: unknown; ignored: string[] }
}

/** A payment admitted: verified and reserved, waiting for the handler's outcome. */
export interface AdmittedCall {
  request: PaidRequest
  input: unknown
  /** The answer's header naming the body fields that were ignored. */
  headers: Record<string, string>
  ticket: Ticket
  /** The payment identifier, when the payment carries one. */
  key: string | null
  hash: string
  purchase: Purchase
  /** Ends the in-flight mark of this payment (an identical retry is told to wait until then). */
  done?: () => void
}

/** What `admit` decided, as data: only `admitted` runs the handler; the others are answered by `answerOf`. */
export type Admission =
  /** No payment: the 402 challenge. */
  | { kind: 'challenge' }
  /** A repeated payment for the same request: its kept answer, nothing runs. */
  | { kind: 'collected'; collected: Collected; version: 1 | 2 }
  /** The payment is refused: the 402 challenge with the reason. */
  | { kind: 'refused'; reason: string; message: string; headers: Record<string, string> }
  | { kind: 'admitted'; call: AdmittedCall }

/** The handler's outcome, for `finish`: its result, or its error (`gone`: the client left before the answer). */
export type Outcome = { ok: true; out: unknown } | { ok: false; error: unknown; gone: boolean }

/** Errors to answers: the shared database (DATABASE_URL) down or too slow fails closed as a retryable 503. */
export const toServiceError = (e: unknown, log: Logger, requestId: string): ServiceError =>
  asServiceError(e, log, { request_id: requestId }, 'unhandled error', {
    code: 'PAYMENT_UNAVAILABLE',
    message: 'Payments are unavailable right now (database); nothing was charged. Retry shortly.',
  })

const challengeCache = new WeakMap<
  CatalogService,
  Map<string, ReturnType<typeof challenge> & { bodyText: string; headers: Record<string, string> }>
>()

/** The unpaid challenge of a service/tier/resource, built once (it is deterministic) and reused. */
function cachedChallenge(r: PaidRequest, deps: PaidCallDeps) {
  let m = challengeCache.get(r.svc)
  if (!m) challengeCache.set(r.svc, (m = new Map()))
  const key = `${r.tier} ${r.resource}`
  let c = m.get(key)
  if (!c) {
    const built = challenge(deps.config, r.svc, r.tier, deps.payTo, r.resource)
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

/** The resource's 402 with a reason (and a message, and extra headers such as Retry-After). */
function refusal(r: PaidRequest, deps: PaidCallDeps, reason: string, message: string, headers: Record<string, string>) {
  const again = challenge(deps.config, r.svc, r.tier, deps.payTo, r.resource, reason)
  return json({ ...again.body, message }, 402, r.requestId, {
    'payment-required': again.header,
    'cache-control': 'no-store',
    ...headers,
  })
}

/** The answer to an admission that runs nothing: the challenge, the kept answer, or the refusal. */
export function answerOf(a: Exclude<Admission, { kind: 'admitted' }>, r: PaidRequest, deps: PaidCallDeps): Response {
  switch (a.kind) {
    case 'challenge': {
      const c = cachedChallenge(r, deps)
      return new Response(c.bodyText, { status: 402, headers: { ...c.headers, 'x-request-id': r.requestId } })
    }
    case 'collected':
      return collectedResponse(a.collected, r.requestId, a.version, (reason, message, headers) =>
        refusal(r, deps, reason, message, headers),
      )
    case 'refused':
      return refusal(r, deps, a.reason, a.message, a.headers)
  }
}

const refused = (reason: string, message: string, headers: Record<string, string> = {}): Admission => ({
  kind: 'refused',
  reason,
  message,
  headers,
})

/** Paid calls running in this process (per authorization and request), for the identical retry of a timed-out client. */
const running = new RunningCalls()

/**
 * The first door: throttle -> input -> decode -> a repeated payment collects its kept result -> verification and
 * reservation (the gate). Returns `admitted` with the ticket, or what to answer instead; throws a ServiceError for
 * a 4xx/503 that is not a 402. Whatever it reserved and does not hand over as `admitted` is released here.
 */
export async function admit(r: PaidRequest, deps: PaidCallDeps): Promise<Admission> {
  const { svc, tier, requestId, client } = r
  const c = cachedChallenge(r, deps)
  if (!r.payment) return { kind: 'challenge' }
  if (await deps.refusals.blocked(client)) {
    throw new ServiceError(429, 'TOO_MANY_INVALID_PAYMENTS', 'Too many refused payments from this client; slow down.', {
      headers: { 'retry-after': String(await deps.refusals.retryAfter(client)) },
    })
  }
  const { input, ignored } = r.input()
  const { header, version } = r.payment
  // A repeated payment (same authorization, or same payment identifier) for the same request collects its kept result.
  const hash = requestHash(svc.slug, tier, r.raw)
  // Decoded once here; the gate checks this same decoded payment.
  let decoded: DecodedPayment
  try {
    decoded = decodePayment(header, version)
  } catch (e) {
    if (e instanceof PaymentRefused) return refused(e.reason, e.message)
    throw e
  }
  const key = paymentIdentifierOf(decoded)
  // With several networks (NETWORKS): the requirements of the network the payment names.
  const requirements = requirementsOfPayment(c.accepts, decoded)
  const purchase: Purchase = { resourceUrl: r.resource, service: svc.slug, tier, requestHash: hash, requestId }
  const collect = async (got: Collected): Promise<Admission> => ({
    kind: 'collected',
    collected: await signedCollection(deps, got, purchase, requirements),
    version,
  })
  if (key) {
    const got = await deps.results.byIdentifier(decoded, key, requirements, hash)
    if (got) return collect(got)
  }
  // Marked before verification: an identical retry while this call verifies is told to wait, not to sign again.
  const done = running.start(decoded, hash) ?? undefined
  let ticket: Ticket | undefined
  let handedOver = false
  try {
    try {
      ticket = await deps.gate.authorize(decoded, requirements, svc.slug, tier, requestId, client)
    } catch (e) {
      if (e instanceof PaymentRefused) {
        if (e.reason === REASON.authorizationAlreadyUsed || e.reason === REASON.validBefore) {
          const got = await deps.results.byAuthorization(decoded, requirements, hash)
          if (got) return collect(got)
          // The same payment for the same request is still running here (the client gave up waiting): wait for it.
          if (e.reason === REASON.authorizationAlreadyUsed && !done && running.running(decoded, hash))
            return refused(
              REASON.settlementPending,
              'This payment is being processed for this identical request; send it again in a few seconds to collect the result.',
              { 'retry-after': '2' },
            )
        }
        return refused(e.reason, e.message)
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
        await deps.gate.release(ticket, 'payment identifier already used')
        ticket = undefined
        return collect(held)
      }
    }
    handedOver = true
    const headers = ignoredFieldsHeader(ignored)
    return { kind: 'admitted', call: { request: r, input, headers, ticket, key, hash, purchase, done } }
  } catch (e) {
    if (ticket) await releaseHeld(ticket, deps, requestId)
    throw e
  } finally {
    if (!handedOver) done?.()
  }
}

/** Drops the kept result and releases a payment reserved for a request that failed before settlement. */
async function releaseHeld(t: Ticket, deps: PaidCallDeps, requestId: string, why = 'request failed before settlement') {
  await deps.results.discard(t)
  await deps.gate
    .release(t, why)
    .catch((re) =>
      deps.log.error('release failed; the reconciler releases it', { request_id: requestId, error: String(re) }),
    )
}

/**
 * The second door, for a JSON answer: a failed handler (or a client that left) releases the payment, nothing is
 * charged; a result is kept, then settled, and answered 200 with the settlement response (and its signed receipt)
 * in PAYMENT-RESPONSE; a settlement that did not complete is answered 402 with its reason, the result withheld.
 */
export async function finish(call: AdmittedCall, outcome: Outcome, deps: PaidCallDeps): Promise<Response> {
  const { svc, requestId } = call.request
  const { gate, stats, log } = deps
  let ticket: Ticket | undefined = call.ticket
  try {
    if (!outcome.ok) {
      await deps.results.discard(ticket)
      if (outcome.gone) {
        // Nobody is there to receive the result: nothing is settled; the authorization may be used again, but the
        // run counts as a failed one (the work was done).
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
      const err = toServiceError(outcome.error, log, requestId)
      await gate.failed(ticket, err.status, err.code)
      ticket = undefined
      stats.record(svc.slug, { calls: 1, errors: 1 })
      return errorResponse(err, requestId)
    }
    const { out } = outcome
    stats.record(svc.slug, { calls: 1, tokens: (out as { tokens_used?: number })?.tokens_used ?? 0 })
    const body = JSON.stringify(out)
    // Kept before settling, so a payment whose settlement ends up pending can collect it once reconciled.
    await deps.results.keep(ticket, call.key, call.hash, body)
    const t = ticket
    ticket = undefined
    const settled = await settleKept(deps, t, call.purchase)
    if (!settled.ok) return refusal(call.request, deps, settled.reason, settled.message, settled.headers)
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...BASE_HEADERS,
        'x-request-id': requestId,
        [settled.headerName]: settled.header,
        'cache-control': 'private, no-store',
        ...call.headers,
      },
    })
  } catch (e) {
    if (ticket) await releaseHeld(ticket, deps, requestId)
    const err = toServiceError(e, log, requestId)
    if (err.status >= 500 && !svc.unavailableReason) stats.record(svc.slug, { errors: 1 })
    return errorResponse(err, requestId)
  } finally {
    call.done?.()
  }
}

/**
 * The second door for a streamed answer (runtime/stream/paid.ts), in its two halves: `settle` once the handler
 * returned its complete result (the settlement response is the final event's `payment`), `fail` when it failed or
 * the client left (the payment is released). The in-flight mark ends with the stream (`call.done`).
 */
export const finishStreamed = {
  async fail(call: AdmittedCall, e: unknown, gone: boolean, deps: PaidCallDeps): Promise<ServiceError> {
    const { svc, requestId } = call.request
    if (gone) {
      await releaseHeld(call.ticket, deps, requestId, 'client disconnected')
      deps.log.info('client disconnected before the streamed answer was complete; payment released', {
        request_id: requestId,
        service: svc.slug,
      })
      return new ServiceError(
        499,
        'CLIENT_CLOSED_REQUEST',
        'The client disconnected before the answer was complete; nothing was charged.',
      )
    }
    const err = toServiceError(e, deps.log, requestId)
    await releaseHeld(call.ticket, deps, requestId, `handler ${err.status} ${err.code}`)
    deps.stats.record(svc.slug, { calls: 1, errors: 1 })
    return err
  },

  async settle(
    call: AdmittedCall,
    out: unknown,
    deps: PaidCallDeps,
  ): Promise<{ ok: true; data: unknown } | { ok: false; error: ServiceError; response: Response }> {
    const { svc, requestId } = call.request
    deps.stats.record(svc.slug, { calls: 1, tokens: (out as { tokens_used?: number })?.tokens_used ?? 0 })
    try {
      await deps.results.keep(call.ticket, call.key, call.hash, JSON.stringify(out))
    } catch (e) {
      const error = toServiceError(e, deps.log, requestId)
      await releaseHeld(call.ticket, deps, requestId)
      return { ok: false, error, response: errorResponse(error, requestId) }
    }
    const settled = await settleKept(deps, call.ticket, call.purchase)
    if (settled.ok) return { ok: true, data: { ...(out as object), payment: settled.response } }
    const error = new ServiceError(402, 'SETTLEMENT_FAILED', settled.message, {
      extra: {
        reason: settled.reason,
        ...(settled.pending ? { retry_after: Number(settled.headers['retry-after']) } : {}),
      },
    })
    return {
      ok: false,
      error,
      response: refusal(call.request, deps, settled.reason, settled.message, settled.headers),
    }
  },
}
