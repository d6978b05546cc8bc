/**
 * The MCP Tasks wire shapes of both protocol eras for the tasks of ./tasks.ts:
 * - 2026-07-28, the Tasks extension `io.modelcontextprotocol/tasks` (server-directed: the client declares the
 *   extension in its per-request capabilities; `tools/call` may answer `resultType: "task"`; `tasks/get` carries
 *   the result inline once completed; `tasks/cancel`);
 * - 2025-11-25, the experimental core tasks (the client asks with `params.task`; `CreateTaskResult { task }`;
 *   `tasks/get` the status, `tasks/result` the tool result, `tasks/cancel`; no `tasks/list` here).
 * @module mcp/task-wire
 */
import { POLL_INTERVAL_MS, TASK_TTL_MS, type McpTask } from './tasks'

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks'
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities'
const RELATED_TASK = 'io.modelcontextprotocol/related-task'

const iso = (ms: number) => new Date(ms).toISOString()

/** True when a 2026-07-28 request's envelope declares the Tasks extension. */
export function declaresTasks(envelope: unknown): boolean {
  const caps = (envelope as Record<string, { extensions?: Record<string, unknown> }> | undefined)?.[CLIENT_CAPABILITIES]
  return caps?.extensions?.[TASKS_EXTENSION] !== undefined
}

/**
 * A 2026-07-28 `DetailedTask` (tasks/get), or with `created` the CreateTaskResult's task (status and times only:
 * the result or error lives on tasks/get).
 */
export function modernTask(task: McpTask, created = false): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.updatedAt),
    ttlMs: TASK_TTL_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
    ...(task.status === 'completed' && !created ? { result: task.result } : {}),
    ...(task.status === 'failed' && !created ? { error: task.error } : {}),
  }
}

/** A 2025-11-25 `Task` (tasks/get, tasks/cancel; inside `{ task }` it is the CreateTaskResult). */
export function legacyTask(task: McpTask): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: iso(task.createdAt),
    lastUpdatedAt: iso(task.updatedAt),
    ttl: TASK_TTL_MS,
    pollInterval: POLL_INTERVAL_MS,
  }
}

/** The 2025-11-25 `tasks/result` of a completed task: the tool result, tied to its task. */
export function legacyTaskResult(task: McpTask): Record<string, unknown> {
  const result = task.result ?? { content: [] }
  return { ...result, _meta: { ...result._meta, [RELATED_TASK]: { taskId: task.id } } }
}

/** The JSON-RPC error data of a tasks/ request from a client that did not declare the extension (code -32021). */
export const MISSING_TASKS_CAPABILITY = {
  code: -32021,
  message: 'Missing required client capability',
  data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
}

export const TASK_NOT_FOUND = 'Task not found (unknown, or expired: tasks are kept 15 minutes).'
