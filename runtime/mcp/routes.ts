import { Elysia } from 'elysia'
import type { CatalogService } from '../catalog/index'
import type { QuotaStore } from '../db/store'
import { parseJson, readBody } from '../http/body'
import { BASE_HEADERS, errorResponse, newRequestId } from '../http/respond'
import { crossOrigin, originAccepted } from '../http/same-origin'
import { withKeepAlive } from '../http/sse'
import type { PipelineDeps } from '../call/pipeline'
import { ServiceError } from '../sdk'
import { asServiceError } from '../http/unexpected'
import { callDemoTool, callPaidTool, type CallOrigin } from './bridge'
import { RpcError } from './mpp'
import { createFreeTools, errorResult } from './free'
import type { Progress } from './progress'
import type { ToolResult } from './results'
import {
  CALL_SERVICE,
  callServiceInput,
  callServiceTool,
  demoToolName,
  FEATURED,
  FREE_TOOLS,
  freeTools,
  paidTool,
} from './tools'
import { prepareInput } from '../input/validate'
import { observeToolCall } from '../ops/mcp'

export interface McpDeps extends PipelineDeps {
  services: CatalogService[]
  quota: QuotaStore
}

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
 * POST /mcp: the MCP Streamable HTTP endpoint, stateless (a fresh SDK server and transport per request, JSON
 * answers). GET and DELETE answer 405: there is no session and no server-initiated stream. The protocol versions are
 * the SDK's (2024-10-07 to 2025-11-25, the client's own when it is one of them); JSON-RPC batches are refused in every
 * one of them, though 2025-03-26 had them (no official SDK client sends them). A request with an Origin that is
 * not allowed (runtime/http/same-origin.ts) gets 403 CROSS_ORIGIN; agents send none.
 */
export function mcpRoutes(deps: McpDeps, clientOf: (req: Request, server: ServerLike) => string, version: string) {
  const { services, config } = deps
  const paid = new Map(services.map((s) => [s.slug, s]))
  const demo = paid.get(config.demo.service)
  const free = freeTools(demo, config.demo.dailyLimit)
  for (const f of free) if (paid.has(f.name)) throw new Error(`MCP tool name ${f.name} clashes with a service slug`)
  const generic = callServiceTool(services)
  // Default: the free tools, call_service and the featured services (a few dozen KB); ?tools=all: every service.
  const listed = {
    all: { tools: [...free, generic, ...services.map((s) => paidTool(s, config.networks[0].network))] },
    default: {
      tools: [
        ...free,
        generic,
        ...FEATURED.flatMap((slug) => {
          const s = paid.get(slug)
          return s ? [paidTool(s, config.networks[0].network)] : []
        }),
      ],
    },
  }
  const freeHandlers = createFreeTools(services, config)
  const bodyLimit = config.bodyLimitBytes + 64 * 1024

  async function callTool(
    mcp: Awaited<ReturnType<typeof loadSdk>>,
    name: string,
    args: unknown,
    meta: Record<string, unknown> | undefined,
    origin: CallOrigin,
  ): Promise<ToolResult> {
    if (name === FREE_TOOLS.search) return freeHandlers.search(args)
    if (name === FREE_TOOLS.describe) return freeHandlers.describe(args)
    if (demo && name === demoToolName(demo.slug)) return callDemoTool(demo, args, origin, deps.quota, deps)
    if (name === CALL_SERVICE) {
      const { slug, arguments: inner } = prepareInput(callServiceInput, args ?? {}) as {
        slug: string
        arguments?: Record<string, unknown>
      }
      return callPaidTool(freeHandlers.find(slug), inner ?? {}, meta, origin, deps)
    }
    // Every service answers under its own name, listed or not (the default list shows only the featured ones).
    const svc = paid.get(name)
    if (!svc)
      throw new mcp.McpError(mcp.ErrorCode.InvalidParams, `Unknown tool: ${name}. Use search_services to find one.`)
    return callPaidTool(svc, args, meta, origin, deps)
  }

  async function handle(request: Request, client: string): Promise<Response> {
    const all = URL.canParse(request.url) && new URL(request.url).searchParams.get('tools') === 'all'
    const toolSet = all ? listed.all : listed.default
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
    const mcp = await (sdk ??= loadSdk())
    const server = new mcp.Server(
      { name: config.provider.name, version },
      { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
    )
    server.setRequestHandler(mcp.ListToolsRequestSchema, () => toolSet)
    server.setRequestHandler(mcp.CallToolRequestSchema, async (req, extra) => {
      const progressToken = req.params._meta?.progressToken
      // Progress asked for: each chunk of the answer is a notifications/progress on this request's SSE answer.
      const progress =
        progressToken === undefined
          ? undefined
          : (p: Progress) =>
              void extra
                .sendNotification({ method: 'notifications/progress', params: { progressToken, ...p } })
                .catch(() => {})
      try {
        const meta = req.params._meta as Record<string, unknown> | undefined
        return await observeToolCall(req.params.name, meta, extra.requestId, () =>
          callTool(mcp, req.params.name, req.params.arguments, meta, {
            client,
            signal: AbortSignal.any([request.signal, extra.signal]),
            progress,
          }),
        )
      } catch (e) {
        if (e instanceof mcp.McpError) throw e
        // MPP's transport: a refused credential is a JSON-RPC error with the challenges (./mpp.ts).
        if (e instanceof RpcError) throw new mcp.McpError(e.code, e.message, e.data)
        return errorResult(asServiceError(e, deps.log, { tool: req.params.name }, 'mcp tool call failed'))
      }
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
