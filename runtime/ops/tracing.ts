/**
 * OpenTelemetry traces (docs/operations.md "Traces"), off unless the standard `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set. Then, and only then, the official SDK (`@opentelemetry/sdk-trace`, the
 * OTLP/HTTP JSON exporter, the AsyncLocalStorage context manager, the W3C trace-context propagator) is imported, once,
 * at boot; spans are batched and exported over OTLP/HTTP. Off, `tracing()` is undefined and every hook returns at
 * its first line: nothing is imported, allocated or exported (bench/tracing.ts measures both).
 * The exporter reads the rest of the standard variables itself (`OTEL_EXPORTER_OTLP_HEADERS`, `..._TIMEOUT`,
 * `..._COMPRESSION`, `OTEL_BSP_*`).
 * @module ops/tracing
 */
import type * as Api from '@opentelemetry/api'
import type { Env } from '../config/declare'
import type { Logger } from '../sdk'

export interface Tracing {
  api: typeof Api
  tracer: Api.Tracer
  /** Exports the spans ended so far (tests; shutdown). */
  flush(): Promise<void>
  shutdown(): Promise<void>
}

let state: Tracing | undefined
let starting: Promise<Tracing | undefined> | undefined

/** The running tracing, or undefined when no OTLP endpoint is configured (the hooks' first test). */
export const tracing = (): Tracing | undefined => state

/** Where spans go: the traces endpoint as given, else `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`; undefined: off. */
export function tracesEndpoint(env: Env): string | undefined {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return undefined
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
  if (traces) return traces
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined
}

/** Starts tracing when an endpoint is configured (once per process; later calls return the same). */
export function startTracing(env: Env, log: Logger, version: string): Promise<Tracing | undefined> {
  const url = tracesEndpoint(env)
  if (!url) return Promise.resolve(state)
  starting ??= load(url, env.OTEL_SERVICE_NAME || 'x402-api', version).then(
    (t) => {
      state = t
      log.info('tracing on: spans exported over OTLP/HTTP', { endpoint: new URL(url).origin })
      return t
    },
    (e) => {
      starting = undefined
      log.error('tracing could not start; running without it', { error: String((e as Error)?.message ?? e) })
      return undefined
    },
  )
  return starting
}

/** Ends tracing (exports what is left); the next start begins anew (tests). */
export async function stopTracing(): Promise<void> {
  const t = state
  state = undefined
  starting = undefined
  await t?.shutdown()
}

async function load(url: string, serviceName: string, version: string): Promise<Tracing> {
  // Literal specifiers: bundled into the binary, loaded only here.
  const [api, sdk, exporter, resources, hooks, core] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
  ])
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': serviceName, 'service.version': version }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new exporter.OTLPTraceExporter({ url }) })],
  })
  api.context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable())
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator())
  return {
    api,
    tracer: provider.getTracer('x402-api', version),
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown()
      api.context.disable()
      api.propagation.disable()
    },
  }
}

/** The W3C `traceparent` (and `tracestate`) of the active span, for an outgoing request; empty when off. */
export function traceHeaders(): Record<string, string> {
  const t = state
  if (!t) return {}
  const out: Record<string, string> = {}
  t.api.propagation.inject(t.api.context.active(), out)
  return out
}

/**
 * `fetch` that carries the active span's `traceparent` (the model provider's requests). Tracing off: plain fetch.
 */
export const tracedFetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  const extra = traceHeaders()
  if (!extra.traceparent) return fetch(input, init)
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined))
  for (const [k, v] of Object.entries(extra)) headers.set(k, v)
  return fetch(input, { ...init, headers })
}) as typeof fetch
