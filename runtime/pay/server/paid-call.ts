/**
 * The paid call seen from the resource server, entered through two doors (as x402's own server enters its core
 * twice): `admit` before the handler, `finish` after it. The pipeline (runtime/pipeline.ts) reads the HTTP request,
 * calls `admit`, runs the handler only for `admitted`, and hands the outcome to `finish` (or `finishStreamed` for
 * Server-Sent Events). The scheme (`exact`: ./exact.ts) admits the payment and holds it; these doors sequence the
 * money rules around the handler, whatever the scheme. How a second scheme plugs in: runtime/pay/README.md.
 * @module pay/server/paid-call
 */
import type { CatalogService } from '../../catalog'
import { asServiceError } from '../../http/unexpected'
import { BASE_HEADERS, errorResponse, json } from '../../http/respond'
import { ServiceError, type Logger } from '../../sdk'
import { REASON } from '../reasons'
import { b64json } from '../wire'
import { challenge } from './challenge'
import { collectedResponse } from './collected-answer'
import type { Admission, AdmittedCall, Outcome, PaidCallDeps, PaidRequest } from './doors'
import { admitExact } from './exact'
import { admitChannel, channelPaymentOf, refundChannel } from '../batch-settlement/scheme'
import type { PaymentRequirements } from '@x402/core/types'

export type { Admission, AdmittedCall, Outcome, PaidCallDeps, PaidRequest } from './doors'

/** Errors to answers: the shared database (DATABASE_URL) down or too slow fails closed as a retryable 503. */
export const toServiceError = (e: unknown, log: Logger, requestId: string): ServiceError =>
  asServiceError(e, log, { request_id: requestId }, 'unhandled error', {
    code: 'PAYMENT_UNAVAILABLE',
    message: 'Payments are unavailable right now (database); nothing was charged. Retry shortly.',
  })

type CachedChallenge = ReturnType<typeof challenge> & {
  /** The unpaid 402, built once: each request answers a clone of it with its own X-Request-Id. */
  response: Response
}

const challengeCache = new WeakMap<CatalogService, Map<string, CachedChallenge>>()

/**
 * The unpaid challenge of a service/tier/resource, built once (it is deterministic) and reused: its accepts, and
 * the whole 402 as a Response (cloning it costs a fifth of building one from a header object, whose 3 KB
 * PAYMENT-REQUIRED value is copied each time). A new key when the 402 changes: payment channels added on a
 * network while running (`version`).
 */
function cachedChallenge(r: PaidRequest, deps: PaidCallDeps): CachedChallenge {
  let m = challengeCache.get(r.svc)
  if (!m) challengeCache.set(r.svc, (m = new Map()))
  const key = `${r.tier} ${r.resource} ${deps.channels?.version ?? 0}`
  let c = m.get(key)
  if (!c) {
    const built = challenge(deps.config, r.svc, r.tier, deps.payTo, r.resource, undefined, deps.channels)
    const response = new Response(JSON.stringify(built.body), {
      status: 402,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...BASE_HEADERS,
        'payment-required': built.header,
        'cache-control': 'no-store',
      },
    })
    c = { ...built, response }
    if (m.size >= 32) m.delete(m.keys().next().value!)
    m.set(key, c)
  }
  return c
}

/**
 * The resource's 402 with a reason (and a message, and extra headers such as Retry-After); `corrective`: a channel's
 * `batch-settlement` entry with the spec's corrective extra, in place of the plain offer.
 */
function refusal(
  r: PaidRequest,
  deps: PaidCallDeps,
  reason: string,
  message: string,
  headers: Record<string, string>,
  corrective?: PaymentRequirements,
) {
  const channels = deps.channels && { offer: deps.channels.offer, corrective }
  const again = challenge(deps.config, r.svc, r.tier, deps.payTo, r.resource, reason, channels)
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
      const res = cachedChallenge(r, deps).response.clone()
      res.headers.set('x-request-id', r.requestId)
      return res
    }
    case 'collected':
      return collectedResponse(a.collected, r.requestId, a.version, (reason, message, headers) =>
        refusal(r, deps, reason, message, headers),
      )
    case 'refused':
      return refusal(r, deps, a.reason, a.message, a.headers, a.corrective)
  }
}

/** A client past its refused payments of the minute (INVALID_PAYMENT_LIMIT) gets 429 before any payment work. */
async function notThrottled(r: PaidRequest, deps: PaidCallDeps): Promise<void> {
  if (await deps.refusals.blocked(r.client)) {
    throw new ServiceError(429, 'TOO_MANY_INVALID_PAYMENTS', 'Too many refused payments from this client; slow down.', {
      headers: { 'retry-after': String(await deps.refusals.retryAfter(r.client)) },
    })
  }
}

/**
 * The first door: no payment -> the challenge; a throttled client -> 429; then the input (its 4xx before any
 * payment check), then the scheme admits the payment (`exact`: decode, collect a kept result, verify and reserve).
 * Returns what to do as data; throws a ServiceError for an answer that is not a 402.
 */
export async function admit(r: PaidRequest, deps: PaidCallDeps): Promise<Admission> {
  if (!r.payment) return { kind: 'challenge' }
  const c = cachedChallenge(r, deps)
  await notThrottled(r, deps)
  const { input, ignored } = r.input()
  const { header, version } = r.payment
  const s = { request: r, header, version, input, ignored, accepts: c.accepts }
  // The scheme the payment names (`accepted.scheme`): batch-settlement when this server offers channels, else exact.
  const channelPayment = deps.channels ? channelPaymentOf(header, version) : null
  if (deps.channels && channelPayment) return admitChannel(deps.channels, channelPayment, s, deps)
  return admitExact(s, deps)
}

/**
 * The refund door (x402 `batch-settlement`'s cooperative refund, a GET on a paid route; no handler runs): without a
 * payment, the 402 challenge (the official client's refund probe); with a refund payload, the channel's unclaimed
 * rest goes back to the payer: 200 with PAYMENT-RESPONSE, or the 402 with the reason (a cumulative mismatch with the
 * corrective entry). Only where channels are offered; elsewhere the route is POST only.
 */
export async function refund(r: PaidRequest, deps: PaidCallDeps): Promise<Response> {
  const ch = deps.channels
  if (!ch)
    throw new ServiceError(405, 'METHOD_NOT_ALLOWED', `Use POST for /api/${r.svc.slug}.`, {
      headers: { allow: 'POST, OPTIONS' },
    })
  if (!r.payment) return answerOf({ kind: 'challenge' }, r, deps)
  const c = cachedChallenge(r, deps)
  await notThrottled(r, deps)
  const payment = channelPaymentOf(r.payment.header, r.payment.version)
  if (!payment)
    return answerOf(
      {
        kind: 'refused',
        reason: REASON.channelPayload,
        message: 'A GET here carries only a batch-settlement refund; pay for a call with POST.',
        headers: {},
      },
      r,
      deps,
    )
  const out = await refundChannel(ch, payment, r, c.accepts, deps)
  if ('kind' in out) return answerOf(out, r, deps)
  return new Response(JSON.stringify({ refund: out.response }), {
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...BASE_HEADERS,
      'x-request-id': r.requestId,
      'payment-response': b64json(out.response),
      'cache-control': 'no-store',
    },
  })
}

/**
 * The second door, for a JSON answer: a failed handler (or a client that left) lets the payment go, nothing is
 * charged; a result is kept, then settled, and answered 200 with the settlement response (and its signed receipt)
 * in PAYMENT-RESPONSE; a settlement that did not complete is answered 402 with its reason, the result withheld.
 */
export async function finish(call: AdmittedCall, outcome: Outcome, deps: PaidCallDeps): Promise<Response> {
  const { svc, requestId } = call.request
  const { stats, log } = deps
  let held = true
  try {
    if (!outcome.ok) {
      if (outcome.gone) {
        // Nobody is there to receive the result: nothing is settled; the authorization may be used again, but the
        // run counts as a failed one (the work was done).
        await call.hold.failed(499, 'CLIENT_CLOSED_REQUEST')
        held = false
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
      await call.hold.failed(err.status, err.code)
      held = false
      stats.record(svc.slug, { calls: 1, errors: 1 })
      return errorResponse(err, requestId)
    }
    const { out } = outcome
    stats.record(svc.slug, { calls: 1, tokens: (out as { tokens_used?: number })?.tokens_used ?? 0 })
    const body = JSON.stringify(out)
    await call.hold.keep(body)
    held = false
    const settled = await call.hold.settle()
    if (!settled.ok) return refusal(call.request, deps, settled.reason, settled.message, settled.headers)
    const answer = settled.charged ? JSON.stringify({ ...(out as object), charged: settled.charged }) : body
    return new Response(answer, {
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
    if (held) await call.hold.release('request failed before settlement')
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
      await call.hold.release('client disconnected')
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
    await call.hold.release(`handler ${err.status} ${err.code}`)
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
      await call.hold.keep(JSON.stringify(out))
    } catch (e) {
      const error = toServiceError(e, deps.log, requestId)
      await call.hold.release('request failed before settlement')
      return { ok: false, error, response: errorResponse(error, requestId) }
    }
    const settled = await call.hold.settle()
    if (settled.ok) {
      const charged = settled.charged ? { charged: settled.charged } : {}
      return { ok: true, data: { ...(out as object), ...charged, payment: settled.response } }
    }
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
