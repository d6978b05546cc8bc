/**
 * The paid call seen from the resource server, entered through two doors (as x402's own server enters its core
 * twice): `admit` before the handler, `finish` after it. The pipeline (runtime/call/pipeline.ts) reads the HTTP request,
 * calls `admit`, runs the handler only for `admitted`, and hands the outcome to `finish` (or `finishStreamed` for
 * Server-Sent Events). The scheme (`exact`: ./exact.ts) admits the payment and holds it; these doors sequence the
 * money rules around the handler, whatever the scheme. How a second scheme plugs in: runtime/pay/README.md.
 * @module pay/server/paid-call
 */
import type { CatalogService } from '../../catalog/index'
import { asServiceError } from '../../http/unexpected'
import { BASE_HEADERS, errorResponse, json } from '../../http/respond'
import { ServiceError, type Logger } from '../../sdk'
import { REASON } from '../reasons'
import { b64json } from '../wire'
import { challenge } from './challenge'
import { collectedResponse } from './collected-answer'
import type { Admission, AdmittedCall, Outcome, PaidCallDeps, PaidRequest, ProblemDetails } from './doors'
import { presented } from './schemes'
import type { PaymentRequirements } from '@x402/core/types'
import { PAYER_FAILED_RUNS, PAYER_FAILED_RUNS_WINDOW_MS } from '../../db/throttle'

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
  const key = `${r.tier} ${r.resource} ${deps.schemes.version}`
  let c = m.get(key)
  if (!c) {
    const built = challenge(deps.config, r.svc, r.tier, deps.payTo, r.resource, undefined, deps.schemes.offers)
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
 * entry with the spec's corrective extra (a channel's), in place of its scheme's plain offer on that network.
 */
function refusal(
  r: PaidRequest,
  deps: PaidCallDeps,
  reason: string,
  message: string,
  headers: Record<string, string>,
  corrective?: PaymentRequirements,
  problem?: ProblemDetails,
) {
  const offers = (base: Parameters<PaidCallDeps['schemes']['offers']>[0]) => deps.schemes.offers(base, corrective)
  const again = challenge(deps.config, r.svc, r.tier, deps.payTo, r.resource, reason, offers)
  // Every scheme's challenge again (MPP's fresh `WWW-Authenticate`), and problem details as the body of an MPP refusal.
  // A channel's corrective 402 answers in x402 only: its payer pays by channel, and the corrective entry takes the
  // room of the 402's 4 KB head (docs/api.md "The 402's size").
  const all = {
    'payment-required': again.header,
    ...(corrective ? {} : deps.schemes.challengeHeaders(r, again.accepts)),
    'cache-control': 'no-store',
    ...headers,
  }
  if (problem) return json(problem, 402, r.requestId, { ...all, 'content-type': 'application/problem+json' })
  return json({ ...again.body, message }, 402, r.requestId, all)
}

/** The answer to an admission that runs nothing: the challenge, the kept answer, or the refusal. */
export function answerOf(a: Exclude<Admission, { kind: 'admitted' }>, r: PaidRequest, deps: PaidCallDeps): Response {
  switch (a.kind) {
    case 'challenge': {
      const c = cachedChallenge(r, deps)
      const res = c.response.clone()
      res.headers.set('x-request-id', r.requestId)
      // Headers that change while the 402 does not (MPP's challenges expire): set on each answer.
      for (const [k, v] of Object.entries(deps.schemes.challengeHeaders(r, c.accepts))) res.headers.set(k, v)
      return res
    }
    case 'collected':
      return collectedResponse(a.collected, r.requestId, a.version, (reason, message, headers) =>
        refusal(r, deps, reason, message, headers),
      )
    case 'refused':
      return refusal(r, deps, a.reason, a.message, a.headers, a.corrective, a.problem)
  }
}

/**
 * The payment a request presents: PAYMENT-SIGNATURE (x402 v2), X-PAYMENT (v1), or an `Authorization: Payment`
 * credential (MPP); null for none. Both protocols' credentials at once is a 400 (which one pays is not guessed).
 */
export function paymentOf(req: Request): PaidRequest['payment'] {
  const v2 = req.headers.get('payment-signature')
  const x402 = v2 ?? req.headers.get('x-payment')
  const auth = req.headers.get('authorization')
  const mpp = auth && /^\s*payment\s+/i.test(auth) ? auth.trim() : null
  if (x402 && mpp)
    throw new ServiceError(
      400,
      'TWO_PAYMENT_CREDENTIALS',
      'Send one payment: an x402 PAYMENT-SIGNATURE (or X-PAYMENT) or an MPP Authorization: Payment credential, not both.',
    )
  if (mpp) return { header: mpp, version: 2, protocol: 'mpp' }
  return x402 ? { header: x402, version: v2 ? 2 : 1 } : null
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
  const p = presented(r.payment.header, r.payment.version, r.payment.protocol)
  const s = { request: r, ...p, input, ignored, accepts: c.accepts }
  // The scheme the payment is for (the first registered that claims it: `accepted.scheme`, its network), else exact.
  const a = await deps.schemes.pick(p).admit(s, deps)
  if (a.kind === 'admitted') await notCoolingDown(a.call, deps)
  return a
}

/**
 * A payer whose paid runs kept failing (PAYER_FAILED_RUNS in PAYER_FAILED_RUNS_WINDOW_MS: runtime/db/throttle.ts; counted by the one finish
 * on JSON, stream and MCP alike) is cooled down across authorizations: its admitted payment is let go (nothing
 * charged, nothing run) and answered 429 with Retry-After, before the handler runs.
 */
async function notCoolingDown(call: AdmittedCall, deps: PaidCallDeps): Promise<void> {
  const payer = call.payer?.toLowerCase()
  if (!payer || !(await deps.failingRuns.blocked(payer))) return
  const retryAfter = await deps.failingRuns.retryAfter(payer)
  await call.hold.release('payer cooling down after failed runs')
  call.done?.()
  await countFailedRun(call, 429, deps)
  throw new ServiceError(
    429,
    'TOO_MANY_FAILED_RUNS',
    `The paid calls of ${payer} failed ${PAYER_FAILED_RUNS} times within ${PAYER_FAILED_RUNS_WINDOW_MS / 60_000} minutes; its payments are refused for ${retryAfter} s (nothing was charged).`,
    { headers: { 'retry-after': String(retryAfter) } },
  )
}

/**
 * The refund door (x402 `batch-settlement`'s cooperative refund, a GET on a paid route; no handler runs): without a
 * payment, the 402 challenge (the official client's refund probe); with a refund payload, the channel's unclaimed
 * rest goes back to the payer: 200 with PAYMENT-RESPONSE, or the 402 with the reason (a cumulative mismatch with the
 * corrective entry). Only where channels are offered; elsewhere the route is POST only.
 */
export async function refund(r: PaidRequest, deps: PaidCallDeps): Promise<Response> {
  const refunder = deps.schemes.refunder
  if (!refunder?.refund)
    throw new ServiceError(405, 'METHOD_NOT_ALLOWED', `Use POST for /api/${r.svc.slug}.`, {
      headers: { allow: 'POST, OPTIONS' },
    })
  if (!r.payment) return answerOf({ kind: 'challenge' }, r, deps)
  const c = cachedChallenge(r, deps)
  await notThrottled(r, deps)
  const p = presented(r.payment.header, r.payment.version, r.payment.protocol)
  if (!refunder.claims(p))
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
  const out = await refunder.refund(p, r, c.accepts, deps)
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

/** What the one finish decided, for the JSON answer and the streamed one alike (rendered by each). */
export type Concluded =
  | {
      ok: true
      /** The handler's result as answered: with `charged` when a voucher paid by tokens used. */
      data: object
      /** `data` as JSON when it is the result as kept (stringified once for both). */
      json?: string
      /** PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1), and the settlement response it encodes. */
      headerName: string
      header: string
      response: unknown
    }
  /** `refusal`: the settlement did not complete (the result is withheld): the 402 to answer. */
  | {
      ok: false
      error: ServiceError
      refusal?: { reason: string; message: string; headers: Record<string, string>; problem?: ProblemDetails }
    }

const clientClosed = () =>
  new ServiceError(
    499,
    'CLIENT_CLOSED_REQUEST',
    'The client disconnected before the answer was ready; nothing was charged.',
  )

/**
 * A paid run failed (or its client left): counted against the client and the payer in the refusal throttle, and
 * against the payer's failing runs, which cool it down across authorizations (`notCoolingDown`). A 503 is this
 * server unavailable, not the run: not counted.
 */
async function countFailedRun(call: AdmittedCall, status: number, deps: PaidCallDeps): Promise<void> {
  if (status === 503) return
  const { client } = call.request
  const payer = call.payer?.toLowerCase()
  const hit = (store: PaidCallDeps['refusals'], key: string) =>
    Promise.resolve(store.hit(key)).catch((e) =>
      deps.log.warn('refusal throttle unavailable', { error: (e as Error).message }),
    )
  await Promise.all([
    client ? hit(deps.refusals, client) : undefined,
    payer ? hit(deps.refusals, `payer:${payer}`) : undefined,
    payer ? hit(deps.failingRuns, payer) : undefined,
  ])
}

/**
 * THE second door (the one finish), whatever answers: JSON (`finish`), a stream (`finishStreamed`, which MCP's
 * progress notifications read). A failed handler (or a client that left) lets the payment go through the scheme's
 * `failed` (nothing charged, the run counted: per authorization, refusal throttle, payer's failing runs); a result is
 * counted, kept, then settled; a settlement that did not complete withholds the result (`refusal`). Never throws.
 */
export async function conclude(call: AdmittedCall, outcome: Outcome, deps: PaidCallDeps): Promise<Concluded> {
  const { svc, requestId } = call.request
  const { stats, log } = deps
  let held = true
  try {
    if (!outcome.ok) {
      const err = outcome.gone ? clientClosed() : toServiceError(outcome.error, log, requestId)
      await call.hold.failed(err.status, err.code)
      held = false
      await countFailedRun(call, err.status, deps)
      if (outcome.gone)
        log.info('client disconnected before the answer; payment released', {
          request_id: requestId,
          service: svc.slug,
        })
      else stats.record(svc.slug, { calls: 1, errors: 1 })
      return { ok: false, error: err }
    }
    const { out } = outcome
    stats.record(svc.slug, { calls: 1, tokens: (out as { tokens_used?: number })?.tokens_used ?? 0 })
    const kept = JSON.stringify(out)
    await call.hold.keep(kept)
    held = false
    const settled = await call.hold.settle()
    if (!settled.ok) {
      const { reason, message, headers } = settled
      const error = new ServiceError(402, 'SETTLEMENT_FAILED', message, {
        extra: { reason, ...(settled.pending ? { retry_after: Number(headers['retry-after']) } : {}) },
      })
      return { ok: false, error, refusal: { reason, message, headers, problem: settled.problem } }
    }
    const { headerName, header, response } = settled
    if (settled.charged)
      return { ok: true, data: { ...(out as object), charged: settled.charged }, headerName, header, response }
    return { ok: true, data: out as object, json: kept, headerName, header, response }
  } catch (e) {
    if (held) await call.hold.release('request failed before settlement')
    const err = toServiceError(e, log, requestId)
    if (err.status >= 500 && !svc.unavailableReason) stats.record(svc.slug, { errors: 1 })
    return { ok: false, error: err }
  }
}

/** The one finish answered as JSON: 200 with the settlement response (and its receipt) in PAYMENT-RESPONSE, or the error. */
export async function finish(call: AdmittedCall, outcome: Outcome, deps: PaidCallDeps): Promise<Response> {
  const { requestId } = call.request
  try {
    const c = await conclude(call, outcome, deps)
    if (!c.ok) {
      if (c.refusal)
        return refusal(
          call.request,
          deps,
          c.refusal.reason,
          c.refusal.message,
          c.refusal.headers,
          undefined,
          c.refusal.problem,
        )
      return errorResponse(c.error, requestId)
    }
    return new Response(c.json ?? JSON.stringify(c.data), {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...BASE_HEADERS,
        'x-request-id': requestId,
        [c.headerName]: c.header,
        'cache-control': 'private, no-store',
        ...call.headers,
      },
    })
  } finally {
    call.done?.()
  }
}

/**
 * The one finish for a streamed answer (runtime/call/stream/paid.ts): the final event's data (the result with the
 * settlement response as `payment`), or the error (with the HTTP answer, while nothing was streamed yet). The
 * in-flight mark ends with the stream (`call.done`).
 */
export async function finishStreamed(
  call: AdmittedCall,
  outcome: Outcome,
  deps: PaidCallDeps,
): Promise<{ ok: true; data: unknown } | { ok: false; error: ServiceError; response: Response }> {
  const c = await conclude(call, outcome, deps)
  if (c.ok) return { ok: true, data: { ...c.data, payment: c.response } }
  const response = c.refusal
    ? refusal(call.request, deps, c.refusal.reason, c.refusal.message, c.refusal.headers, undefined, c.refusal.problem)
    : errorResponse(c.error, call.request.requestId)
  return { ok: false, error: c.error, response }
}
