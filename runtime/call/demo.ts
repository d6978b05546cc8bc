import type { CatalogService } from '../catalog/index'
import type { QuotaStore } from '../db/store'
import { readBody, parseJson, requireJson } from '../http/body'
import { errorResponse, json } from '../http/respond'
import type { PipelineDeps } from './pipeline'
import { runHandler } from './run-handler'
import { ServiceError } from '../sdk'
import { prepareInput } from '../input/validate'
import { asServiceError } from '../http/unexpected'
import { wantsEventStream } from '../http/sse'
import { streamDemo } from './stream/demo'
import { crossOrigin, originAccepted } from '../http/same-origin'

/**
 * POST /api/demo/explain: the demo service (explain-code by default) at its demo tier, free, limited per
 * client per UTC day. A call is reserved against the quota, then refunded if it fails: invalid bodies,
 * unavailable models and failed calls never use it up. A web page of another origin gets 403 (it would spend the
 * operator's model budget from a visitor's browser; MCP_ALLOWED_ORIGINS admits one).
 */
export async function serveDemo(
  svc: CatalogService | undefined,
  req: Request,
  requestId: string,
  client: string,
  quota: QuotaStore,
  deps: PipelineDeps,
): Promise<Response> {
  try {
    if (!originAccepted(req, deps.config.allowedOrigins)) throw crossOrigin('the demo')
    if (!svc) throw new ServiceError(503, 'DEMO_DISABLED', 'The demo service is not enabled on this server.')
    requireJson(req)
    const input = prepareInput(
      svc.manifest.input,
      parseJson(await readBody(req, deps.config.bodyLimitBytes, deps.config.bodyTimeoutMs)),
    )
    if (svc.unavailableReason)
      throw new ServiceError(svc.unavailableReason.status, svc.unavailableReason.code, svc.unavailableReason.message)
    const q = await quota.consume(client)
    const quotaHeaders = {
      'x-demo-limit': String(q.limit),
      'x-demo-remaining': String(q.remaining),
      'x-demo-resets-at': q.resetsAt,
    }
    if (!q.allowed) {
      const retry = Math.max(1, Math.ceil((Date.parse(q.resetsAt) - Date.now()) / 1000))
      throw new ServiceError(
        429,
        'DEMO_QUOTA_EXCEEDED',
        `The free demo allows ${q.limit} calls per client per UTC day; it resets at ${q.resetsAt}. Paid calls to /api/v1/${svc.slug} are not limited.`,
        {
          headers: { 'retry-after': String(retry), ...quotaHeaders },
          extra: { limit: q.limit, resets_at: q.resetsAt },
        },
      )
    }
    if (wantsEventStream(req))
      return await streamDemo(req, { svc, input, requestId, client, quota, reserved: q, headers: quotaHeaders }, deps)
    const tier = deps.config.demo.tier
    const abort = new AbortController()
    let out: unknown
    try {
      out = await runHandler(svc, input, deps.context(svc, tier, requestId, abort.signal, client), abort)
    } catch (e) {
      await quota.refund(client, q) // only a successful call counts (a model outage never uses up the quota)
      throw e
    }
    deps.stats.record(svc.slug, { calls: 1, demo_calls: 1, tokens: (out as { tokens_used?: number }).tokens_used ?? 0 })
    return json(
      { ...(out as object), demo: { remaining: q.remaining, limit: q.limit, resets_at: q.resetsAt } },
      200,
      requestId,
      quotaHeaders,
    )
  } catch (e) {
    return errorResponse(
      asServiceError(e, deps.log, { request_id: requestId }, 'demo failed', {
        code: 'DATABASE_UNAVAILABLE',
        message: 'The demo is unavailable right now (database); retry shortly.',
      }),
      requestId,
    )
  }
}
