/**
 * The A2A tasks of this process: what a task asked for (skill and input) between the payment request and the
 * payment, and its last state. Money is not here: payments, kept results and receipts live in the paid-call doors'
 * stores (runtime/pay/server), so a task lost here (restart, eviction) costs the client a new task, never a charge.
 * Bounded: at most `max` tasks and `maxBytes` of inputs and results (an unpaid task costs its sender nothing, so the
 * bytes are the bound that matters), each kept `ttlMs` after its last change (oldest first out).
 * @module a2a/tasks
 */

/** `working`: a paid call streams its answer (message/stream); the others as A2A says. */
export type TaskState = 'working' | 'input-required' | 'completed' | 'failed' | 'canceled'

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
  private sizes = new Map<string, number>()
  private bytes = 0
  constructor(
    private max = 10_000,
    private ttlMs = 3_600_000,
    private now = () => Date.now(),
    private maxBytes = 64 * 1024 * 1024,
  ) {}

  private drop(id: string): void {
    this.tasks.delete(id)
    this.bytes -= this.sizes.get(id) ?? 0
    this.sizes.delete(id)
  }

  get(id: string): A2aTask | undefined {
    const t = this.tasks.get(id)
    if (t && this.now() - t.updatedAt > this.ttlMs) {
      this.drop(id)
      return undefined
    }
    return t
  }

  /** Stores (or re-stores) a task as the newest. */
  put(t: A2aTask): void {
    t.updatedAt = this.now()
    this.drop(t.id)
    const size = JSON.stringify(t.input).length + (t.result === undefined ? 0 : JSON.stringify(t.result).length)
    this.tasks.set(t.id, t)
    this.sizes.set(t.id, size)
    this.bytes += size
    while (this.tasks.size > this.max || (this.bytes > this.maxBytes && this.tasks.size > 1))
      this.drop(this.tasks.keys().next().value!)
  }

  /** The bytes of inputs and results held. */
  get heldBytes(): number {
    return this.bytes
  }

  get size(): number {
    return this.tasks.size
  }
}
