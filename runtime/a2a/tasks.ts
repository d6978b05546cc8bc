/**
 * The A2A tasks of this process: what a task asked for (skill and input) between the payment request and the
 * payment, and its last state. Money is not here: payments, kept results and receipts live in the paid-call doors'
 * stores (runtime/pay/server), so a task lost here (restart, eviction) costs the client a new task, never a charge.
 * Bounded: at most `max` tasks, each kept `ttlMs` after its last change (oldest first out).
 * @module a2a/tasks
 */

export type TaskState = 'input-required' | 'completed' | 'failed' | 'canceled'

export interface A2aTask {
  id: string
  contextId: string
  skill: string
  /** The service's JSON input, as the first message gave it (the paid request repeats it). */
  input: Record<string, unknown>
  state: TaskState
  /** The agent's status message: its text and the x402 metadata. */
  text: string
  metadata: Record<string, unknown>
  /** The result of a completed task (one JSON artifact). */
  result?: unknown
  /** Every settlement response of the task (x402.payment.receipts is its whole history). */
  receipts: unknown[]
  updatedAt: number
}

export class TaskStore {
  private tasks = new Map<string, A2aTask>()
  constructor(
    private max = 10_000,
    private ttlMs = 3_600_000,
    private now = () => Date.now(),
  ) {}

  get(id: string): A2aTask | undefined {
    const t = this.tasks.get(id)
    if (t && this.now() - t.updatedAt > this.ttlMs) {
      this.tasks.delete(id)
      return undefined
    }
    return t
  }

  /** Stores (or re-stores) a task as the newest. */
  put(t: A2aTask): void {
    t.updatedAt = this.now()
    this.tasks.delete(t.id)
    this.tasks.set(t.id, t)
    while (this.tasks.size > this.max) this.tasks.delete(this.tasks.keys().next().value!)
  }

  get size(): number {
    return this.tasks.size
  }
}
