/**
 * An in-process OTLP/HTTP trace receiver (a Bun.serve on a free loopback port): accepts what the official exporter
 * (`@opentelemetry/exporter-trace-otlp-http`) POSTs to `/v1/traces` as OTLP JSON, decodes every span, and answers as
 * a collector does. Anything that is not OTLP JSON is refused (415) and recorded as a problem.
 */

export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number
  attributes: Record<string, string | number | boolean>
  status: { code?: number; message?: string }
  resource: Record<string, string | number | boolean>
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean }
type KeyValue = { key: string; value: AnyValue }

const otlpValue = (v: AnyValue) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue ?? ''))
const flat = (kvs: KeyValue[] = []) => Object.fromEntries(kvs.map((kv) => [kv.key, otlpValue(kv.value)]))

export interface OtlpReceiver {
  /** The base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  url: string
  spans: ReceivedSpan[]
  /** Requests that were not OTLP JSON on /v1/traces. */
  problems: string[]
  stop(): void
}

export function startOtlpReceiver(): OtlpReceiver {
  const spans: ReceivedSpan[] = []
  const problems: string[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      const type = req.headers.get('content-type') ?? ''
      if (req.method !== 'POST' || path !== '/v1/traces' || !type.startsWith('application/json')) {
        problems.push(`${req.method} ${path} ${type}`)
        return new Response('OTLP JSON on /v1/traces only', { status: 415 })
      }
      const body = (await req.json()) as {
        resourceSpans?: Array<{
          resource?: { attributes?: KeyValue[] }
          scopeSpans?: Array<{
            spans?: Array<{
              traceId: string
              spanId: string
              parentSpanId?: string
              name: string
              kind: number
              attributes?: KeyValue[]
              status?: { code?: number; message?: string }
            }>
          }>
        }>
      }
      for (const rs of body.resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              kind: s.kind,
              attributes: flat(s.attributes),
              status: s.status ?? {},
              resource: flat(rs.resource?.attributes),
            })
      return Response.json({ partialSuccess: {} })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, spans, problems, stop: () => void server.stop(true) }
}
