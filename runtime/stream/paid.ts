/**
 * A paid call answered as Server-Sent Events (docs/streaming.md): the payment is already verified and reserved;
 * the model's text streams as `delta` events; settlement runs only once the handler returned its complete, valid
 * result, and the settlement response (with the signed receipt) is the `payment` of the final `result` event.
 * A failed handler or a client that leaves releases the payment: nothing is charged.
 * @module stream/paid
 */
import type { CatalogService } from '../catalog'
import { errorResponse } from '../http/respond'
import { ServiceError, type TierName } from '../sdk'
import type { Ticket } from '../pay/server/gate'
import { settleKept } from '../pay/server/settle-kept'
import { runHandler, toServiceError, type PipelineDeps } from '../pipeline'
import { streamedCall } from './call'

export interface PaidStream {
  svc: CatalogService
  tier: TierName
  input: unknown
  ticket: Ticket
  /** The payment identifier, when the payment carries one. */
  key: string | null
  hash: string
  resource: string
  requestId: string
  headers: Record<string, string>
  /** The resource's 402 with a reason (a settlement that did not complete, before anything was streamed). */
  refuse(reason: string, message: string, headers: Record<string, string>): Response
  /** Ends the in-flight record of this payment. */
  done?: () => void
}

export async function streamPaid(req: Request, p: PaidStream, deps: PipelineDeps): Promise<Response> {
  const { svc, ticket, requestId } = p
  const { gate, log, stats } = deps
  const release = async (why: string) => {
    await deps.results.discard(ticket)
    await gate
      .release(ticket, why)
      .catch((e) =>
        log.error('release failed; the reconciler releases it', { request_id: requestId, error: String(e) }),
      )
  }
  return streamedCall({
    requestId,
    signal: req.signal,
    heartbeatMs: deps.config.streamHeartbeatMs,
    headers: p.headers,
    run: (sink, signal) => {
      const abort = new AbortController()
      const ctx = deps.context(svc, p.tier, requestId, AbortSignal.any([abort.signal, signal, req.signal]))
      return runHandler(svc, p.input, { ...ctx, stream: sink }, abort)
    },
    async fail(e, gone) {
      if (gone) {
        await release('client disconnected')
        log.info('client disconnected before the streamed answer was complete; payment released', {
          request_id: requestId,
          service: svc.slug,
        })
        return new ServiceError(
          499,
          'CLIENT_CLOSED_REQUEST',
          'The client disconnected before the answer was complete; nothing was charged.',
        )
      }
      const err = toServiceError(e, log, requestId)
      await release(`handler ${err.status} ${err.code}`)
      stats.record(svc.slug, { calls: 1, errors: 1 })
      return err
    },
    async finish(out) {
      stats.record(svc.slug, { calls: 1, tokens: (out as { tokens_used?: number })?.tokens_used ?? 0 })
      try {
        await deps.results.keep(ticket, p.key, p.hash, JSON.stringify(out))
      } catch (e) {
        const error = toServiceError(e, log, requestId)
        await release('request failed before settlement')
        return { ok: false, error, response: errorResponse(error, requestId) }
      }
      const settled = await settleKept(deps, ticket, {
        resourceUrl: p.resource,
        service: svc.slug,
        tier: p.tier,
        requestHash: p.hash,
        requestId,
      })
      if (settled.ok) return { ok: true, data: { ...(out as object), payment: settled.response } }
      const error = new ServiceError(402, 'SETTLEMENT_FAILED', settled.message, {
        extra: {
          reason: settled.reason,
          ...(settled.pending ? { retry_after: Number(settled.headers['retry-after']) } : {}),
        },
      })
      return { ok: false, error, response: p.refuse(settled.reason, settled.message, settled.headers) }
    },
    onEnd: p.done,
  })
}
