/**
 * The tools of /mcp, whatever the protocol era: the two tool lists (default and `?tools=all`) and one tool call
 * (free tools, the demo, `call_service`, every service by name), run synchronously or, for a paid model call, as a
 * Task (./tasks.ts). Each era's server (./routes.ts for 2025-11-25, ./modern.ts for 2026-07-28) maps the answers
 * and `UnknownTool` onto its own wire.
 * @module mcp/calls
 */
import type { CatalogService } from '../catalog/index'
import { RpcError } from './mpp'
import type { QuotaStore } from '../db/store'
import type { PipelineDeps } from '../call/pipeline'
import { asServiceError } from '../http/unexpected'
import { prepareInput } from '../input/validate'
import { callDemoTool, callPaidTool, type CallOrigin } from './bridge'
import { createFreeTools, errorResult } from './free'
import type { ToolResult } from './results'
import { startTask, TaskStore, TasksFull, type McpTask } from './tasks'
import {
  CALL_SERVICE,
  callServiceInput,
  callServiceTool,
  demoToolName,
  FEATURED,
  FREE_TOOLS,
  freeTools,
  paidTool,
  type ToolDef,
} from './tools'

export interface McpDeps extends PipelineDeps {
  services: CatalogService[]
  quota: QuotaStore
}

/** A tool name that names no tool: each era answers it with its Invalid Params error. */
export class UnknownTool extends Error {
  constructor(name: string) {
    super(`Unknown tool: ${name}. Use search_services to find one.`)
  }
}

/** How a call may become a task: never, at the server's choice (2026-07-28), or because the client asked (2025-11-25). */
export type TaskMode = 'no' | 'maybe' | 'always'

/** A call that became a task (its result comes later through tasks/get or tasks/result). */
export interface TaskAnswer {
  task: McpTask
  isError?: false
}

/** Calls that run as a task when the client allows it: the paid services that call a model. */
const longRunning = (svc: CatalogService) => Boolean(svc.manifest.needs?.includes('model'))

export function createToolCalls(deps: McpDeps) {
  const { services, config } = deps
  const paid = new Map(services.map((s) => [s.slug, s]))
  const demo = paid.get(config.demo.service)
  const free = freeTools(demo, config.demo.dailyLimit)
  for (const f of free) if (paid.has(f.name)) throw new Error(`MCP tool name ${f.name} clashes with a service slug`)
  const generic: ToolDef = { ...callServiceTool(services), execution: { taskSupport: 'optional' } }
  const asTool = (s: CatalogService): ToolDef => {
    const tool = paidTool(s, config.networks[0].network)
    return longRunning(s) ? { ...tool, execution: { taskSupport: 'optional' } } : tool
  }
  // Default: the free tools, call_service and the featured services (a few dozen KB); ?tools=all: every service.
  const listed = {
    all: { tools: [...free, generic, ...services.map(asTool)] },
    default: {
      tools: [
        ...free,
        generic,
        ...FEATURED.flatMap((slug) => {
          const s = paid.get(slug)
          return s ? [asTool(s)] : []
        }),
      ],
    },
  }
  const freeHandlers = createFreeTools(services, config)
  const tasks = new TaskStore()

  /** The work of one tool call, and the paid service it calls (if any). */
  function resolve(
    name: string,
    args: unknown,
    meta: Record<string, unknown> | undefined,
  ): { svc?: CatalogService; run: (origin: CallOrigin, admitted?: () => void) => Promise<ToolResult> } {
    if (name === FREE_TOOLS.search) return { run: async () => freeHandlers.search(args) }
    if (name === FREE_TOOLS.describe) return { run: async () => freeHandlers.describe(args) }
    if (demo && name === demoToolName(demo.slug))
      return { run: (origin) => callDemoTool(demo, args, origin, deps.quota, deps) }
    if (name === CALL_SERVICE) {
      const { slug, arguments: inner } = prepareInput(callServiceInput, args ?? {}) as {
        slug: string
        arguments?: Record<string, unknown>
      }
      const svc = freeHandlers.find(slug)
      return { svc, run: (origin, admitted) => callPaidTool(svc, inner ?? {}, meta, origin, deps, admitted) }
    }
    // Every service answers under its own name, listed or not (the default list shows only the featured ones).
    const svc = paid.get(name)
    if (!svc) throw new UnknownTool(name)
    return { svc, run: (origin, admitted) => callPaidTool(svc, args, meta, origin, deps, admitted) }
  }

  /**
   * One tool call: its result, or its task. A task runs without progress notifications and outlives the HTTP
   * request that started it (tasks/cancel or its age stop it). Throws `UnknownTool`, and `TasksFull` (mode
   * `always` only, before anything ran); other errors are results.
   */
  async function call(
    name: string,
    args: unknown,
    meta: Record<string, unknown> | undefined,
    origin: CallOrigin,
    mode: TaskMode = 'no',
  ): Promise<ToolResult | TaskAnswer> {
    const asResult = (e: unknown) => {
      // (MPP's refused credential is a JSON-RPC error: RpcError, ./mpp.ts)
      if (e instanceof UnknownTool || e instanceof TasksFull || e instanceof RpcError) throw e
      return errorResult(asServiceError(e, deps.log, { tool: name }, 'mcp tool call failed'))
    }
    try {
      const { svc, run } = resolve(name, args, meta)
      if (mode === 'no' || (mode === 'maybe' && !(svc && longRunning(svc)))) return await run(origin)
      const started = await startTask(
        tasks,
        origin.signal,
        mode === 'always',
        (signal, admitted) => run({ client: origin.client, signal }, admitted).catch(asResult),
        (e) => ({ code: -32603, message: e instanceof Error ? e.message : 'The call failed.' }),
      )
      return 'task' in started ? { task: started.task } : started.result
    } catch (e) {
      return asResult(e)
    }
  }

  return { list: (all: boolean) => (all ? listed.all : listed.default), call, tasks }
}

export type ToolCalls = ReturnType<typeof createToolCalls>
