/**
 * Running one handler, paid, streamed or demo alike: within the service's time budget, its result checked finite and,
 * for a tiered service, wrapped in the tiered answer.
 * @module run-handler
 */
import type { CatalogService } from '../catalog/index'
import { assertFinite, ServiceError, type ServiceContext } from '../sdk'

/**
 * Runs a handler within the service's time budget; a ServiceError passes through, anything else becomes 500. A handler
 * that answers at once (a linear service's call run on this thread, runtime/isolate/inline.ts) has already finished
 * within its bound: it gets no timer and no race, which cost more than its run.
 */
export async function runHandler(
  svc: CatalogService,
  input: unknown,
  ctx: ServiceContext,
  abort: AbortController,
): Promise<unknown> {
  const ran = svc.handler!(input as never, ctx)
  const out = isThenable(ran) ? await withinBudget(svc, ran, abort) : ran
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
}

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof (v as PromiseLike<unknown> | undefined)?.then === 'function'

/** A pending run, stopped at the service's budget: its signal aborts (the pool ends its worker) and it answers 504. */
async function withinBudget(svc: CatalogService, ran: PromiseLike<unknown>, abort: AbortController): Promise<unknown> {
  const budget = svc.manifest.timeoutMs ?? 10_000
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort()
      reject(new ServiceError(504, 'HANDLER_TIMEOUT', `${svc.slug} did not finish within ${budget} ms`))
    }, budget)
  })
  try {
    return await Promise.race([ran, timeout])
  } finally {
    clearTimeout(timer)
  }
}
