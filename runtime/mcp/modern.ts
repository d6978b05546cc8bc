/**
 * MCP 2026-07-28 on POST /mcp (./routes.ts sends here every request that carries the per-request `_meta`
 * envelope): stateless, no `initialize` and no session, `server/discover` answered by the SDK
 * (`@modelcontextprotocol/server` 2.x, `createMcpHandler` with `legacy: 'reject'`: the 2025-11-25 leg stays on the
 * 1.x SDK in ./routes.ts). Same tools, same x402 transport (`_meta["x402/payment"]` in,
 * `_meta["x402/payment-response"]` out), progress as notifications on an SSE answer, and the Tasks extension
 * `io.modelcontextprotocol/tasks` (./task-wire.ts): a paid model call from a client that declares it answers
 * `resultType: "task"` once its payment is admitted; `tasks/get` polls it and carries the result once complete.
 * @module mcp/modern
 */
import { z } from 'zod'
import { RpcError } from './mpp'
import type { ToolCalls } from './calls'
import { UnknownTool } from './calls'
import type { Progress } from './progress'
import type { McpTask } from './tasks'
import { declaresTasks, MISSING_TASKS_CAPABILITY, modernTask, TASK_NOT_FOUND, TASKS_EXTENSION } from './task-wire'
import { observeToolCall } from '../ops/mcp'

/** What the route knows of one request that the SDK's per-request factory does not: the caller and the tool set. */
export interface ModernRequest {
  client: string
  all: boolean
}

const taskParams = z.looseObject({ taskId: z.string() })

const loadSdk = () => import('@modelcontextprotocol/server')
let sdk: ReturnType<typeof loadSdk> | undefined

export function createModernMcp(opts: {
  calls: ToolCalls
  name: string
  version: string
  instructions: string
  bodyLimit: number
  heartbeatMs: number
}) {
  const { calls } = opts
  const requests = new WeakMap<Request, ModernRequest>()
  let handler: Promise<{ fetch(r: Request, o?: { parsedBody?: unknown }): Promise<Response> }> | undefined

  async function build() {
    const mcp = await (sdk ??= loadSdk())
    const factory = (ctx: { requestInfo?: Request }) => {
      const info = (ctx.requestInfo && requests.get(ctx.requestInfo)) ?? { client: 'unknown', all: false }
      const server = new mcp.Server(
        { name: opts.name, version: opts.version },
        {
          capabilities: { tools: { listChanged: false }, extensions: { [TASKS_EXTENSION]: {} } },
          instructions: opts.instructions,
        },
      )
      server.setRequestHandler('tools/list', () => calls.list(info.all) as never)
      server.setRequestHandler('tools/call', async (req, c) => {
        const { name, arguments: args } = req.params
        const meta = req.params._meta as Record<string, unknown> | undefined
        const progressToken = meta?.progressToken as string | number | undefined
        const progress =
          progressToken === undefined
            ? undefined
            : (p: Progress) =>
                void c.mcpReq
                  .notify({ method: 'notifications/progress', params: { progressToken, ...p } })
                  .catch(() => {})
        try {
          const out = await observeToolCall(name, meta, c.mcpReq.id, async () => {
            const r = await calls.call(
              name,
              args,
              meta,
              { client: info.client, signal: c.mcpReq.signal, progress },
              // A client asking for progress wants the answer on this request: no task then.
              declaresTasks(c.mcpReq.envelope) && !progress ? 'maybe' : 'no',
            )
            return 'task' in r
              ? ({ resultType: 'task', ...modernTask(r.task as McpTask, true) } as { isError?: boolean })
              : r
          })
          return out as never
        } catch (e) {
          if (e instanceof UnknownTool) throw new mcp.ProtocolError(mcp.ProtocolErrorCode.InvalidParams, e.message)
          // MPP's transport: a refused credential is a JSON-RPC error with the challenges (./mpp.ts).
          if (e instanceof RpcError) throw new mcp.ProtocolError(e.code, e.message, e.data)
          throw e
        }
      })
      // The task methods answer only clients that declare the extension on the request (-32021 otherwise).
      const taskOf = (id: string, envelope: unknown): McpTask => {
        if (!declaresTasks(envelope)) {
          const { code, message, data } = MISSING_TASKS_CAPABILITY
          throw new mcp.ProtocolError(code, message, data)
        }
        const task = calls.tasks.get(id)
        if (!task) throw new mcp.ProtocolError(mcp.ProtocolErrorCode.InvalidParams, TASK_NOT_FOUND)
        return task
      }
      server.setRequestHandler(
        'tasks/get',
        { params: taskParams },
        (p, c) => modernTask(taskOf(p.taskId, c.mcpReq.envelope)) as never,
      )
      // No task here ever asks for input: tasks/update acknowledges and ignores responses to no outstanding request.
      server.setRequestHandler('tasks/update', { params: taskParams }, (p, c) => {
        taskOf(p.taskId, c.mcpReq.envelope)
        return {} as never
      })
      // Cancellation is cooperative (the spec's empty ack): a call already settled completes with its result.
      server.setRequestHandler('tasks/cancel', { params: taskParams }, (p, c) => {
        calls.tasks.cancel(taskOf(p.taskId, c.mcpReq.envelope))
        return {} as never
      })
      return server
    }
    return mcp.createMcpHandler(factory as never, {
      legacy: 'reject',
      maxRequestBodySize: opts.bodyLimit,
      keepAliveMs: opts.heartbeatMs,
    })
  }

  return {
    /** Answers one 2026-07-28 request (its body already read and parsed). */
    async fetch(request: Request, parsedBody: unknown, info: ModernRequest): Promise<Response> {
      requests.set(request, info)
      return (await (handler ??= build())).fetch(request, { parsedBody })
    },
    /** True for a request of the 2025 era (no per-request envelope): the 1.x leg answers it. */
    async isLegacy(request: Request, parsedBody: unknown): Promise<boolean> {
      return (await (sdk ??= loadSdk())).isLegacyRequest(request, parsedBody)
    },
  }
}
