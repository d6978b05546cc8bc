/**
 * MCP Tasks for paid model calls (docs/mcp.md "Tasks"): a `tools/call` whose payment was admitted answers at once
 * with a task; the call runs on in the background through the same pipeline (settle only on a complete result,
 * release on failure or cancellation) and its tool result is kept for the payer to fetch (`tasks/get` in MCP
 * 2026-07-28, `tasks/result` in 2025-11-25). Era wire shapes: ./task-wire.ts.
 *
 * Bounded: at most MAX_TASKS tasks are held (running or kept), a new one starts only while the kept results
 * weigh less than MAX_KEPT_BYTES, and every task is dropped TASK_TTL_MS after it was created (a running one is
 * cancelled then: nothing charged). A full store never refuses a paid call: the call runs synchronously instead.
 *
 * Only its payer reaches a task's result: the task id is 256 random bits, handed out only in the answer to the
 * paid request, and the only key to the task (no `tasks/list`, no id in any log). Tasks live in this process.
 * @module mcp/tasks
 */
import type { ToolResult } from './results'

export const MAX_TASKS = 256
export const MAX_KEPT_BYTES = 32 * 1024 * 1024
export const TASK_TTL_MS = 15 * 60_000
export const POLL_INTERVAL_MS = 1000

export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled'

export interface McpTask {
  readonly id: string
  status: TaskStatus
  readonly createdAt: number
  updatedAt: number
  statusMessage?: string
  /** The tool result (status `completed`; `isError` results too, as MCP says). */
  result?: ToolResult
  /** The JSON-RPC error of a call that failed as a protocol error (status `failed`). */
  error?: { code: number; message: string }
  bytes: number
  /** Aborts the running call (cancellation, expiry): the pipeline then releases the payment. */
  readonly abort: AbortController
  /** Resolves once the task is terminal. */
  readonly ended: Promise<void>
  end(): void
}

const newTaskId = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')

export interface TaskLimits {
  maxTasks: number
  maxKeptBytes: number
  ttlMs: number
}
const LIMITS: TaskLimits = { maxTasks: MAX_TASKS, maxKeptBytes: MAX_KEPT_BYTES, ttlMs: TASK_TTL_MS }

export class TaskStore {
  private readonly tasks = new Map<string, McpTask>()
  private kept = 0

  constructor(
    private readonly limits: TaskLimits = LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bytes of the kept results. */
  get keptBytes(): number {
    return this.kept
  }

  get size(): number {
    this.sweep()
    return this.tasks.size
  }

  /** A new working task, or null when the store is full (the caller then runs the call synchronously). */
  open(): McpTask | null {
    this.sweep()
    if (this.tasks.size >= this.limits.maxTasks || this.kept >= this.limits.maxKeptBytes) return null
    let end!: () => void
    const ended = new Promise<void>((r) => {
      end = r
    })
    const at = this.now()
    const task: McpTask = {
      id: newTaskId(),
      status: 'working',
      createdAt: at,
      updatedAt: at,
      statusMessage: 'The call is running; poll tasks/get.',
      bytes: 0,
      abort: new AbortController(),
      ended,
      end,
    }
    this.tasks.set(task.id, task)
    return task
  }

  /** A task completed at once with `result` (MCP 2025-11-25: a client that asked for a task gets one), or null. */
  done(result: ToolResult): McpTask | null {
    const task = this.open()
    if (task) this.complete(task, result)
    return task
  }

  get(id: unknown): McpTask | undefined {
    this.sweep()
    return typeof id === 'string' ? this.tasks.get(id) : undefined
  }

  /** Drops a task that never became visible (the call was answered before its payment was admitted). */
  drop(task: McpTask): void {
    this.tasks.delete(task.id)
    task.end()
  }

  complete(task: McpTask, result: ToolResult): void {
    // A task dropped meanwhile (expired: its call was aborted at that moment) keeps nothing.
    if (!this.tasks.has(task.id)) return
    if (task.status !== 'working' && task.status !== 'cancelled') return
    // A call cancelled too late to stop it (its result was settled) is completed anyway: its payer gets what it paid.
    task.status = 'completed'
    task.result = result
    task.bytes = JSON.stringify(result).length
    task.statusMessage = result.isError ? 'The call ended with an error; nothing was charged.' : 'The result is ready.'
    this.kept += task.bytes
    this.settle(task)
  }

  fail(task: McpTask, error: { code: number; message: string }): void {
    if (task.status !== 'working') return
    task.status = 'failed'
    task.error = error
    task.statusMessage = `${error.message} Nothing was charged.`
    this.settle(task)
  }

  /** Cancellation: the call is aborted (released, never charged unless it had already completed). */
  cancel(task: McpTask, reason = 'Cancelled by the client; nothing was charged.'): void {
    if (task.status !== 'working') return
    task.abort.abort()
    task.status = 'cancelled'
    task.statusMessage = reason
    task.updatedAt = this.now()
  }

  /** Marks a cancelled task whose call was released as over. */
  released(task: McpTask): void {
    if (task.status === 'cancelled') this.settle(task)
  }

  private settle(task: McpTask): void {
    task.updatedAt = this.now()
    task.end()
  }

  /** Drops tasks past their age (a running one is cancelled first). */
  private sweep(): void {
    const cutoff = this.now() - this.limits.ttlMs
    for (const [id, task] of this.tasks) {
      if (task.createdAt > cutoff) break // insertion order = creation order
      if (task.status === 'working') this.cancel(task, 'The task expired; nothing was charged.')
      this.tasks.delete(id)
      this.kept -= task.bytes
      task.end()
    }
  }
}

/** The store is full and the client asked for a task (2025-11-25): refused before anything runs or is paid. */
export class TasksFull extends Error {
  constructor() {
    super('Too many tasks right now: call again later, or without `task`. Nothing was charged.')
  }
}

/** How a call that may become a task went: a task (its payment was admitted), or a plain result. */
export type TaskStart = { task: McpTask } | { result: ToolResult }

/**
 * Runs `run` as a task once its payment is admitted (`admitted` is called by the pipeline, runtime/call/pipeline.ts).
 * Before that, the caller's HTTP request governs it; an answer that comes before admission (the PaymentRequired,
 * a refusal, bad input, a kept result) is a plain result, unless `always` (MCP 2025-11-25, where a client that
 * asked for a task must get one): then it is a task completed at once. A full store runs the call synchronously,
 * or with `always` refuses it (`TasksFull`) before anything runs.
 */
export function startTask(
  store: TaskStore,
  requestSignal: AbortSignal,
  always: boolean,
  run: (signal: AbortSignal, admitted: () => void) => Promise<ToolResult>,
  toError: (e: unknown) => { code: number; message: string },
): Promise<TaskStart> {
  const task = store.open()
  if (!task && always) return Promise.reject(new TasksFull())
  if (!task) return run(requestSignal, () => {}).then((result) => ({ result }))
  let shown = false
  // Until its payment is admitted, the call belongs to the request: a client that leaves stops it.
  const leave = () => {
    if (!shown) task.abort.abort()
  }
  if (requestSignal.aborted) leave()
  else requestSignal.addEventListener('abort', leave, { once: true })
  return new Promise<TaskStart>((resolve, reject) => {
    const show = () => {
      if (shown) return
      shown = true
      requestSignal.removeEventListener('abort', leave)
      resolve({ task })
    }
    run(task.abort.signal, show).then(
      (result) => {
        if (shown || always) {
          show()
          if (task.status === 'cancelled' && !charged(result)) store.released(task)
          else store.complete(task, result)
        } else {
          store.drop(task)
          resolve({ result })
        }
      },
      (e) => {
        if (shown || always) {
          show()
          if (task.status === 'cancelled') store.released(task)
          else store.fail(task, toError(e))
        } else {
          store.drop(task)
          reject(e)
        }
      },
    )
  })
}

/** A result that was paid for (it carries a settlement receipt and is no error). */
const charged = (r: ToolResult) => !r.isError && r._meta?.['x402/payment-response'] !== undefined
