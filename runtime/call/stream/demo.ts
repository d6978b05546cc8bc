/**
 * The free demo answered as Server-Sent Events (docs/streaming.md): deltas as the model writes, then the result
 * with the remaining quota. A failed call or a client that leaves gives the quota back.
 * @module stream/demo
 */
import type { CatalogService } from '../../catalog/index'
import type { QuotaStore } from '../../db/store'
import { errorResponse } from '../../http/respond'
import { asServiceError } from '../../http/unexpected'
import type { PipelineDeps } from '../pipeline'
import { runHandler } from '../run-handler'
import { ServiceError } from '../../sdk'
import { streamedCall } from './call'

export interface DemoStream {
  svc: CatalogService
  input: unknown
  requestId: string
  client: string
  quota: QuotaStore
  /** The quota reservation (given back on failure). */
  reserved: Awaited<ReturnType<QuotaStore['consume']>>
  headers: Record<string, string>
}

export function streamDemo(req: Request, d: DemoStream, deps: PipelineDeps): Promise<Response> {
  const { svc, requestId, reserved: q } = d
  const tier = deps.config.demo.tier
  return streamedCall({
    requestId,
    signal: req.signal,
    heartbeatMs: deps.config.streamHeartbeatMs,
    headers: d.headers,
    run(sink, signal) {
      const abort = new AbortController()
      const ctx = deps.context(svc, tier, requestId, AbortSignal.any([abort.signal, signal]), d.client)
      return runHandler(svc, d.input, { ...ctx, stream: sink }, abort)
    },
    async finish(o) {
      if (!o.ok) {
        await d.quota.refund(d.client, q)
        const error = o.gone
          ? new ServiceError(499, 'CLIENT_CLOSED_REQUEST', 'The client disconnected before the answer was complete.')
          : asServiceError(o.error, deps.log, { request_id: requestId }, 'demo failed')
        return { ok: false, error, response: errorResponse(error, requestId) }
      }
      deps.stats.record(svc.slug, {
        calls: 1,
        demo_calls: 1,
        tokens: (o.out as { tokens_used?: number }).tokens_used ?? 0,
      })
      return {
        ok: true,
        data: { ...(o.out as object), demo: { remaining: q.remaining, limit: q.limit, resets_at: q.resetsAt } },
      }
    },
  })
}
