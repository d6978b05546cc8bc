/**
 * MCP tool calls seen by operations, after OpenTelemetry's MCP semantic conventions: the
 * `mcp.server.operation.duration` histogram (./metrics.ts) and, when tracing is on, a server span
 * `tools/call <tool>` (`mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name` = execute_tool, `jsonrpc.request.id`)
 * that continues the caller's trace from `params._meta.traceparent` (and `tracestate`). A paid tool call's span
 * (./paid-call.ts) is its child: it runs inside this span's context.
 * @module ops/mcp
 */
import { m, observing } from './metrics'
import { tracing } from './tracing'

interface ToolResultLike {
  isError?: boolean
}

/** Runs one `tools/call` in its span (when tracing) and records its duration. */
export async function observeToolCall<T extends ToolResultLike>(
  tool: string,
  meta: Record<string, unknown> | undefined,
  requestId: string | number | undefined,
  call: () => Promise<T>,
): Promise<T> {
  if (!observing.on) return call()
  const started = performance.now()
  const t = tracing()
  let errorType = ''
  const record = () =>
    m.mcpSeconds.observe(
      { mcp_method_name: 'tools/call', gen_ai_tool_name: tool, error_type: errorType },
      (performance.now() - started) / 1000,
    )
  if (!t) {
    try {
      const out = await call()
      if (out?.isError) errorType = 'tool_error'
      return out
    } catch (e) {
      errorType = (e as Error)?.name ?? 'Error'
      throw e
    } finally {
      record()
    }
  }
  const { api, tracer } = t
  // The caller's trace context, carried in the request's `_meta` (MCP conventions), else the active one.
  const carrier: Record<string, string> = {}
  for (const k of ['traceparent', 'tracestate'])
    if (typeof meta?.[k] === 'string') carrier[k] = (meta[k] as string).slice(0, 512)
  const parent = carrier.traceparent ? api.propagation.extract(api.context.active(), carrier) : api.context.active()
  const span = tracer.startSpan(
    `tools/call ${tool}`,
    {
      kind: api.SpanKind.SERVER,
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': tool,
        'gen_ai.operation.name': 'execute_tool',
        'network.transport': 'tcp',
        ...(requestId !== undefined ? { 'jsonrpc.request.id': String(requestId) } : {}),
      },
    },
    parent,
  )
  try {
    const out = await api.context.with(api.trace.setSpan(parent, span), call)
    if (out?.isError) {
      errorType = 'tool_error'
      span.setAttribute('error.type', errorType)
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: errorType })
    }
    return out
  } catch (e) {
    errorType = (e as Error)?.name ?? 'Error'
    span.setAttribute('error.type', errorType)
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: errorType })
    throw e
  } finally {
    record()
    span.end()
  }
}
