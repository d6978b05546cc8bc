import type { CatalogService } from '../catalog/index'
import { readBody, parseJson, requireJson } from '../http/body'
import { checkBeforePayment } from '../input/before-payment'
import { errorResponse } from '../http/respond'
import { requestUrl } from '../http/request-url'
import { isTier, ServiceError, TIERS, type ServiceContext, type TierName } from '../sdk'
import { prepareInputReport } from '../input/validate'
import { ClientGone } from '../http/disconnect'
import { wantsEventStream } from '../http/sse'
import {
  admit,
  answerOf,
  finish,
  paymentOf,
  refund,
  toServiceError,
  type AdmittedCall,
  type Outcome,
  type PaidCallDeps,
  type PaidRequest,
} from '../pay/server/paid-call'
import { runHandler } from './run-handler'
import { streamPaid } from './stream/paid'
import { observeAdmit } from '../ops/paid-call'

export interface PipelineDeps extends PaidCallDeps {
  /** Builds the handler context (fetch, upstreams, model) for one call; `caller`: the payer, or the client's address. */
  context(svc: CatalogService, tier: TierName, requestId: string, signal: AbortSignal, caller: string): ServiceContext
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

/**
 * The caller's address, or how to find it: the unpaid 402 never needs it, so the HTTP routes hand over a function
 * (reading the socket's peer and X-Forwarded-For costs more than the rest of the 402), called at most once, on the
 * PaidRequest's first read of `client`.
 */
export type ClientOf = string | (() => string)

const UNPAID = { kind: 'challenge' } as const

/**
 * One paid call over HTTP: availability -> body (capped) -> tier -> admit (runtime/pay/server/paid-call.ts: the 402
 * challenge, a kept answer, a refusal, or an admitted payment) -> handler -> finish (settle only on success, or
 * release). A streamed answer (Server-Sent Events) finishes through the same door in runtime/call/stream/paid.ts.
 */
export async function servePaid(
  svc: CatalogService,
  req: Request,
  requestId: string,
  client: ClientOf,
  deps: PipelineDeps,
  /** Told once the payment is admitted (verified and held), before the handler runs: an MCP Task starts here. */
  onAdmitted?: () => void,
): Promise<Response> {
  const { config, stats, log } = deps
  try {
    if (svc.unavailableReason)
      throw new ServiceError(svc.unavailableReason.status, svc.unavailableReason.code, svc.unavailableReason.message)
    const url = requestUrl(req)
    const payment = paymentOf(req)
    const raw = await readBody(req, config.bodyLimitBytes, config.bodyTimeoutMs)
    const tier = resolveTier(svc, url, raw)
    // A body the paid call would refuse is refused now, before anyone signs; empty or `{}` reads the price.
    if (!payment) checkBeforePayment(svc.manifest.input, req, raw, svc.manifest.examples[0]?.input)
    let found = typeof client === 'string' ? client : undefined
    const paid: PaidRequest = {
      svc,
      tier,
      resource: `${config.provider.apiBase}${url.pathname}${url.search}`,
      payment,
      raw,
      requestId,
      get client() {
        return (found ??= (client as () => string)())
      },
      input() {
        requireJson(req)
        return prepareInputReport(svc.manifest.input, parseJson(raw), true)
      },
    }
    // No payment: the challenge, without the door's promise and turn (admit's first step; nothing to observe).
    const admission = payment ? await observeAdmit(paid, () => admit(paid, deps)) : UNPAID
    if (admission.kind !== 'admitted') return answerOf(admission, paid, deps)
    onAdmitted?.()
    const { call } = admission
    // Streamed (Server-Sent Events): runs, settles after the complete result and releases like below.
    if (wantsEventStream(req) && svc.manifest.needs?.includes('model')) return streamPaid(req, call, deps)
    return finish(call, await runPaid(svc, req, call, deps), deps)
  } catch (e) {
    const err = toServiceError(e, log, requestId)
    if (err.status >= 500 && !svc.unavailableReason) stats.record(svc.slug, { errors: 1 })
    return errorResponse(err, requestId)
  }
}

/**
 * A GET on a paid route, where payment channels are offered: the refund door (runtime/pay/server/paid-call.ts: the
 * official client's refund probe gets the 402, a refund payload its refund); no handler runs, no body is read.
 */
export async function serveRefund(
  svc: CatalogService,
  req: Request,
  requestId: string,
  client: ClientOf,
  deps: PipelineDeps,
): Promise<Response> {
  try {
    const url = requestUrl(req)
    const payment = paymentOf(req)
    let found = typeof client === 'string' ? client : undefined
    return await refund(
      {
        svc,
        tier: resolveTier(svc, url, ''),
        resource: `${deps.config.provider.apiBase}${url.pathname}${url.search}`,
        payment,
        raw: '',
        requestId,
        get client() {
          return (found ??= (client as () => string)())
        },
        input: () => ({ input: {}, ignored: [] }),
      },
      deps,
    )
  } catch (e) {
    return errorResponse(toServiceError(e, deps.log, requestId), requestId)
  }
}

/**
 * Runs the handler of an admitted call; its result or error (a client that disconnected stops it: `gone`). One
 * listener on the request's signal both aborts the handler's signal and ends the wait (not `AbortSignal.any` and a
 * second listener per call).
 */
async function runPaid(svc: CatalogService, req: Request, call: AdmittedCall, deps: PipelineDeps): Promise<Outcome> {
  const { tier, requestId } = call.request
  const abort = new AbortController()
  const client = req.signal
  let onGone = () => {}
  try {
    if (client.aborted) throw new ClientGone()
    const gone = new Promise<never>((_, reject) => {
      onGone = () => {
        abort.abort()
        reject(new ClientGone())
      }
    })
    client.addEventListener('abort', onGone, { once: true })
    const out = await Promise.race([
      runHandler(svc, call.input, deps.context(svc, tier, requestId, abort.signal, call.payer), abort),
      gone,
    ])
    if (client.aborted) throw new ClientGone()
    return { ok: true, out }
  } catch (e) {
    if (e instanceof ClientGone) abort.abort()
    return { ok: false, error: e, gone: e instanceof ClientGone }
  } finally {
    client.removeEventListener('abort', onGone)
  }
}
