import { Elysia } from 'elysia'
import { parseJson, readBody } from '../http/body'
import { BASE_HEADERS, errorResponse, newRequestId } from '../http/respond'
import { crossOrigin, originAccepted } from '../http/same-origin'
import { withKeepAlive } from '../http/sse'
import { ServiceError } from '../sdk'
import { createToolCalls, UnknownTool, type McpDeps } from './calls'
import { createModernMcp } from './modern'
import { RpcError } from './mpp'
import type { Progress } from './progress'
import type { ToolResult } from './results'
import { legacyTask, legacyTaskResult, TASK_NOT_FOUND } from './task-wire'
import { TasksFull, type McpTask } from './tasks'
import { observeToolCall } from '../ops/mcp'

export type { McpDeps } from './calls'

/**
 * The MCP SDK loads on the first /mcp request, not at boot (it costs ~120 ms of module evaluation). The specifiers
 * are literal, so `bun build --compile` still bundles it into the single binary.
 */
const loadSdk = async () => {
  const [server, transport, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ])
  return { Server: server.Server, Transport: transport.WebStandardStreamableHTTPServerTransport, ...types }
}
let sdk: ReturnType<typeof loadSdk> | undefined

/** True for a tools/call (alone or in a batch) that carries `_meta.progressToken`. */
function asksProgress(body: unknown): boolean {
  const one = (m: unknown) => {
    const r = m as { method?: unknown; params?: { _meta?: { progressToken?: unknown } } } | null
    return r?.method === 'tools/call' && r.params?._meta?.progressToken !== undefined
  }
  return Array.isArray(body) ? body.some(one) : one(body)
}

type ServerLike = { requestIP(r: Request): { address: string } | null } | null

const INSTRUCTIONS =
  'Every tool named after a service (kebab-case), and call_service (any service by slug), is paid per call with x402 v2 (USDC on Base: scheme exact, or batch-settlement payment channels where the PaymentRequired offers them). ' +
  'Invalid arguments are refused free of charge; valid ones without payment get isError with the PaymentRequired in structuredContent: sign one of its `accepts`, and repeat the same call with the PaymentPayload in _meta["x402/payment"]; ' +
  'the receipt comes back in _meta["x402/payment-response"] (its signed receipt under extensions["offer-receipt"]). ' +
  'MPP clients: the same result carries _meta["org.paymentauth/payment-required"] (evm/charge challenges); send the credential in _meta["org.paymentauth/credential"], the receipt comes back in _meta["org.paymentauth/receipt"]. ' +
  'Send _meta.progressToken to get notifications/progress with the answer text as a model writes it. Failed calls are never charged. ' +
  'Model services can run as a Task (MCP 2026-07-28: declare the io.modelcontextprotocol/tasks extension; 2025-11-25: params.task): the paid call answers a task at once, poll tasks/get for the result (settled only when complete). ' +
  'Free tools: search_services (find a service by words), describe_service (schema, prices, example), and a daily-limited demo. ' +
  'This list holds the most used services; every service is reachable with call_service, or listed as its own tool at /mcp?tools=all.'

const MCP_HEADERS = { ...BASE_HEADERS, 'access-control-expose-headers': 'Mcp-Session-Id, Mcp-Protocol-Version' }
const PREFLIGHT = {
  ...MCP_HEADERS,
  'access-control-allow-methods': 'POST, GET, DELETE, OPTIONS',
  'access-control-allow-headers':
    'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-Id',
  'access-control-max-age': '600',
}

/** A JSON-RPC error answer outside any MCP session (bad HTTP method, unreadable body). */
const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...MCP_HEADERS, ...headers },
  })

/**
 * POST /mcp: the MCP Streamable HTTP endpoint, stateless, in both protocol eras (docs/mcp.md). A request with the
 * 2026-07-28 per-request `_meta` envelope goes to the 2.x SDK (./modern.ts); any other to a fresh 1.x SDK server and
 * transport per request (JSON answers), whose versions run from 2024-10-07 to 2025-11-25 (the client's own when it
 * is one of them). GET and DELETE answer 405: there is no session and no server-initiated stream. JSON-RPC batches
 * are refused in every era, though 2025-03-26 had them (no official SDK client sends them). A request with an Origin
 * that is not allowed (runtime/http/same-origin.ts) gets 403 CROSS_ORIGIN; agents send none.
 */
export function mcpRoutes(deps: McpDeps, clientOf: (req: Request, server: ServerLike) => string, version: string) {
  const { config } = deps
  const calls = createToolCalls(deps)
  const bodyLimit = config.bodyLimitBytes + 64 * 1024
  const modern = createModernMcp({
    calls,
    name: config.provider.name,
    version,
    instructions: INSTRUCTIONS,
    bodyLimit,
    heartbeatMs: config.streamHeartbeatMs,
  })

  async function handle(request: Request, client: string): Promise<Response> {
    const all = URL.canParse(request.url) && new URL(request.url).searchParams.get('tools') === 'all'
    let parsedBody: unknown
    try {
      parsedBody = parseJson(await readBody(request, bodyLimit, config.bodyTimeoutMs))
    } catch (e) {
      const err = e instanceof ServiceError ? e : new ServiceError(400, 'INVALID_JSON', 'The body could not be read.')
      return rpcError(err.status === 422 ? 400 : err.status, -32700, err.message)
    }
    // JSON-RPC batches are refused for every protocol version: MCP 2025-06-18 removed them, and one unauthenticated
    // batch of cheap requests (100 × tools/list, 4.8 KB) would otherwise buy a 40 MB answer.
    if (Array.isArray(parsedBody))
      return rpcError(
        400,
        -32600,
        'Invalid Request: JSON-RPC batches are not accepted (removed in MCP 2025-06-18); send one message per request.',
      )
    // MCP 2026-07-28 (a per-request `_meta` envelope): the 2.x SDK's stateless server (./modern.ts).
    if (!(await modern.isLegacy(request, parsedBody))) {
      const res = await modern.fetch(request, parsedBody, { client, all })
      const headers = new Headers(res.headers)
      for (const [k, v] of Object.entries(MCP_HEADERS)) headers.set(k, v)
      headers.set('cache-control', 'no-store')
      return new Response(res.body, { status: res.status, headers })
    }
    const mcp = await (sdk ??= loadSdk())
    const server = new mcp.Server(
      { name: config.provider.name, version },
      {
        capabilities: {
          tools: { listChanged: false },
          // MCP 2025-11-25 tasks (experimental there): paid model calls can run as a task (./tasks.ts).
          tasks: { cancel: {}, requests: { tools: { call: {} } } },
        },
        instructions: INSTRUCTIONS,
      },
    )
    server.setRequestHandler(mcp.ListToolsRequestSchema, () => calls.list(all) as never)
    server.setRequestHandler(mcp.CallToolRequestSchema, async (req, extra) => {
      const progressToken = req.params._meta?.progressToken
      const asTask = req.params.task !== undefined
      // Progress asked for: each chunk of the answer is a notifications/progress on this request's SSE answer.
      const progress =
        progressToken === undefined || asTask
          ? undefined
          : (p: Progress) =>
              void extra
                .sendNotification({ method: 'notifications/progress', params: { progressToken, ...p } })
                .catch(() => {})
      const meta = req.params._meta as Record<string, unknown> | undefined
      try {
        const out = await observeToolCall(req.params.name, meta, extra.requestId, () =>
          calls.call(
            req.params.name,
            req.params.arguments,
            meta,
            { client, signal: AbortSignal.any([request.signal, extra.signal]), progress },
            asTask ? 'always' : 'no',
          ),
        )
        if ('task' in out) return { task: legacyTask(out.task as McpTask) } as never
        if (!asTask) return out as never
        // Asked for a task, answered before one could start (the call was refused before running): a task done at once.
        const task = calls.tasks.done(out as ToolResult)
        if (!task) throw new TasksFull()
        return { task: legacyTask(task) } as never
      } catch (e) {
        if (e instanceof UnknownTool) throw new mcp.McpError(mcp.ErrorCode.InvalidParams, e.message)
        // MPP's transport: a refused credential is a JSON-RPC error with the challenges (./mpp.ts).
        if (e instanceof RpcError) throw new mcp.McpError(e.code, e.message, e.data)
        if (e instanceof TasksFull) throw new mcp.McpError(mcp.ErrorCode.InternalError, e.message)
        throw e
      }
    })
    const taskOf = (id: string): McpTask => {
      const task = calls.tasks.get(id)
      if (!task) throw new mcp.McpError(mcp.ErrorCode.InvalidParams, TASK_NOT_FOUND)
      return task
    }
    server.setRequestHandler(mcp.GetTaskRequestSchema, (req) => legacyTask(taskOf(req.params.taskId)) as never)
    // tasks/result waits for the end of the task (or of this request), then answers what tools/call would have.
    server.setRequestHandler(mcp.GetTaskPayloadRequestSchema, async (req, extra) => {
      const task = taskOf(req.params.taskId)
      const left = AbortSignal.any([request.signal, extra.signal])
      await Promise.race([task.ended, new Promise((r) => left.addEventListener('abort', r, { once: true }))])
      if (task.status === 'completed') return legacyTaskResult(task) as never
      if (task.status === 'failed') throw new mcp.McpError(task.error?.code ?? -32603, task.error?.message ?? 'failed')
      if (task.status === 'cancelled') throw new mcp.McpError(mcp.ErrorCode.InvalidParams, task.statusMessage ?? '')
      throw new mcp.McpError(mcp.ErrorCode.InternalError, 'The request ended before the task did; ask again.')
    })
    server.setRequestHandler(mcp.CancelTaskRequestSchema, (req) => {
      const task = taskOf(req.params.taskId)
      if (task.status !== 'working')
        throw new mcp.McpError(mcp.ErrorCode.InvalidParams, `The task is already ${task.status}.`)
      calls.tasks.cancel(task)
      return legacyTask(task) as never
    })
    // A tool call asking for progress is answered as SSE (notifications, then the result); anything else as JSON.
    const sse = asksProgress(parsedBody)
    const transport = new mcp.Transport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !sse,
      maxRequestBodySize: bodyLimit,
    })
    const close = () => void server.close().catch(() => {})
    let streaming = false
    try {
      await server.connect(transport)
      const res = await transport.handleRequest(request, { parsedBody })
      const headers = new Headers(res.headers)
      for (const [k, v] of Object.entries(MCP_HEADERS)) headers.set(k, v)
      headers.set('cache-control', 'no-store')
      if (!sse || !res.body) return new Response(res.body, { status: res.status, headers })
      // The server lives until its SSE answer ends (the result was written) or the client leaves.
      streaming = true
      // Keep-alive comments while a model thinks, as on the HTTP stream.
      const body = withKeepAlive(res.body, config.streamHeartbeatMs, close)
      return new Response(body, { status: res.status, headers })
    } finally {
      if (!streaming) close()
    }
  }

  // DNS rebinding and cross-site pages: a request whose Origin is not allowed is refused before anything is read.
  const foreign = (request: Request) =>
    originAccepted(request, config.allowedOrigins) ? null : errorResponse(crossOrigin('/mcp'), newRequestId())
  const notAllowed = () =>
    rpcError(405, -32000, 'Method not allowed: this MCP server is stateless; send JSON-RPC with POST /mcp.', {
      allow: 'POST, OPTIONS',
    })
  return new Elysia({ name: 'mcp' })
    .options('/mcp', () => new Response(null, { status: 204, headers: PREFLIGHT }))
    .post('/mcp', ({ request, server }) => foreign(request) ?? handle(request, clientOf(request, server)), {
      parse: 'none',
      detail: { hide: true },
    })
    .get('/mcp', ({ request }) => foreign(request) ?? notAllowed(), { detail: { hide: true } })
    .delete('/mcp', ({ request }) => foreign(request) ?? notAllowed(), { detail: { hide: true } })
}
