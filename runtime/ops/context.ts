/**
 * A handler's context seen by operations: its model calls are timed, their tokens and errors counted (./metrics.ts),
 * and, when tracing is on, the model and upstream calls are spans under the paid call's handler span (OpenTelemetry
 * GenAI conventions: `chat <model>`, `gen_ai.*`), with the W3C `traceparent` sent along (the model's requests through
 * `tracedFetch`, an upstream's as a header of its request).
 * @module ops/context
 */
import type * as Api from '@opentelemetry/api'
import type { CatalogService } from '../catalog/index'
import type { ModelClient, ServiceContext, TierName, Upstream } from '../sdk'
import { m, observing } from './metrics'
import { handlerContext } from './paid-call'
import { traceHeaders, tracing } from './tracing'

/** The runtime's context factory (runtime/call/context.ts): `caller` is the worker pool's share (the payer, or the client). */
type ContextFactory<C extends ServiceContext> = (
  svc: CatalogService,
  tier: TierName,
  requestId: string,
  signal: AbortSignal,
  caller: string,
) => C

const codeOf = (e: unknown) => String((e as { code?: unknown })?.code ?? (e as Error)?.name ?? 'ERROR')

/** Runs `fn` in a child span of the call's handler span (tracing on and a traced paid call), else plainly. */
async function inSpan<T>(
  requestId: string,
  name: string,
  kind: 'client' | 'internal',
  attributes: Api.Attributes,
  fn: (span: Api.Span | undefined) => Promise<T>,
): Promise<T> {
  const t = tracing()
  const parent = t && handlerContext(requestId)
  if (!t || !parent) return fn(undefined)
  const span = t.tracer.startSpan(
    name,
    { kind: kind === 'client' ? t.api.SpanKind.CLIENT : t.api.SpanKind.INTERNAL, attributes },
    parent,
  )
  try {
    return await t.api.context.with(t.api.trace.setSpan(parent, span), () => fn(span))
  } catch (e) {
    span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: codeOf(e) })
    span.setAttribute('error.type', codeOf(e))
    throw e
  } finally {
    span.end()
  }
}

function observedModel(model: ModelClient, service: string, requestId: string): ModelClient {
  return {
    available: model.available,
    model: model.model,
    complete: (req) =>
      inSpan(
        requestId,
        `chat ${model.model}`,
        'client',
        { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': model.model },
        async (span) => {
          const started = performance.now()
          try {
            const out = await model.complete(req)
            m.modelSeconds.observe({ model: model.model, outcome: 'ok' }, (performance.now() - started) / 1000)
            m.modelTokens.inc({ model: model.model, service }, out.tokensUsed)
            span?.setAttributes({ 'gen_ai.response.model': out.model, 'gen_ai.usage.total_tokens': out.tokensUsed })
            return out
          } catch (e) {
            m.modelSeconds.observe({ model: model.model, outcome: 'error' }, (performance.now() - started) / 1000)
            m.modelErrors.inc({ model: model.model, code: codeOf(e) })
            throw e
          }
        },
      ),
  }
}

function observedUpstream(u: Upstream, requestId: string): Upstream {
  return {
    name: u.name,
    baseUrl: u.baseUrl,
    key: u.key,
    attribution: u.attribution,
    getJson: (path, query, opts) =>
      inSpan(requestId, `GET ${u.name}`, 'client', { 'http.request.method': 'GET', 'server.address': u.name }, () => {
        const extra = traceHeaders()
        return u.getJson(path, query, extra.traceparent ? { ...opts, headers: { ...opts?.headers, ...extra } } : opts)
      }),
  }
}

/** The context factory with its model (metrics; spans when tracing) and upstreams (spans when tracing) observed. */
export function observedContext<C extends ServiceContext>(make: ContextFactory<C>): ContextFactory<C> {
  return (svc, tier, requestId, signal, caller) => {
    const ctx = make(svc, tier, requestId, signal, caller)
    if (!observing.on) return ctx
    const upstream = ctx.upstream
    return {
      ...ctx,
      model: observedModel(ctx.model, svc.slug, requestId),
      upstream: (name) => {
        const u = upstream(name)
        return tracing() ? observedUpstream(u, requestId) : u
      },
    }
  }
}
