/**
 * The main thread's side of a worker's context (runtime/isolate/worker.ts): what a worker gets of the call's context
 * (plain fields, the model's labels, the declared upstreams), and the context calls it cannot make itself, run here
 * with the main thread's network, model and payment clients.
 */
import type { ServiceContext } from '../sdk'
import type { CallContext, ToWorker } from './protocol'

/** The plain part of `ctx` a worker rebuilds its context from; `upstreams`: the names the service declares. */
export function callContextOf(ctx: ServiceContext, upstreams: readonly string[]): CallContext {
  const declared: CallContext['upstreams'] = {}
  for (const name of upstreams) {
    try {
      const { getJson: _, ...u } = ctx.upstream(name)
      declared[name] = u
    } catch {
      /* not configured: the worker answers it as the main thread would */
    }
  }
  return {
    requestId: ctx.requestId,
    service: ctx.service,
    tier: ctx.tier,
    maxTokens: ctx.maxTokens,
    model: { available: ctx.model.available, model: ctx.model.model },
    upstreams: declared,
    stream: ctx.stream !== undefined,
  }
}

/**
 * Runs the worker's context call `id` (`op` with `args`) with `ctx`: `send` reaches the worker (a streamed model
 * call's chunks), `ask` has the worker run a model answer's `validate` and resolves with its verdict.
 */
export async function contextCall(
  ctx: ServiceContext,
  id: number,
  op: string,
  args: unknown[],
  send: (m: ToWorker) => void,
  ask: (json: unknown) => Promise<string | undefined>,
): Promise<unknown> {
  if (op === 'fetch') {
    const p = await ctx.fetch(...(args as Parameters<ServiceContext['fetch']>))
    return { url: p.url, status: p.status, headers: [...p.headers], contentType: p.contentType, body: p.body }
  }
  if (op === 'getJson') {
    const [name, ...rest] = args as [string, ...Parameters<ReturnType<ServiceContext['upstream']>['getJson']>]
    return ctx.upstream(name).getJson(...rest)
  }
  if (op === 'verify') return ctx.x402.verify(...(args as Parameters<ServiceContext['x402']['verify']>))
  const [req, validates, streams] = args as [Parameters<ServiceContext['model']['complete']>[0], boolean, boolean]
  // The model client streams on this thread; each chunk goes to the sink the worker's handler gave its call.
  const stream = streams
    ? {
        delta: (text: string) => send({ t: 'chunk', id, kind: 'delta', text }),
        restart: (reason: string) => send({ t: 'chunk', id, kind: 'restart', text: reason }),
      }
    : undefined
  return ctx.model.complete({ ...req, signal: ctx.signal, validate: validates ? ask : undefined, stream })
}
