/**
 * A2A messages to paid calls, with x402's A2A flow (google-agentic-commerce/a2a-x402 v0.2, standalone: the x402
 * objects in message metadata). A first message names a skill and its input; the call goes through the same
 * pipeline as HTTP and MCP (`servePaid`, so the same doors: admit, finish), and its answer becomes the task's state:
 * 402 -> `input-required` with `x402.payment.status: payment-required` and the v2 PaymentRequired in
 * `x402.payment.required`; the client's next message on the task carries `x402.payment.payload`, which becomes the
 * PAYMENT-SIGNATURE of the same request: 200 -> `completed`, the result as an artifact and the settlement response
 * in `x402.payment.receipts`; a refused payment -> `input-required` again with `payment-failed` and its reason;
 * a failed call -> `failed`, nothing charged. Validation before payment, the replay lock, kept results, receipts and
 * settle-only-on-success are the pipeline's, unchanged. A streamed send (message/stream) is the same flow, its paid
 * call answered as the pipeline's stream (./stream.ts).
 * @module a2a/run
 */
import type { CatalogService } from '../catalog/index'
import { newRequestId } from '../http/respond'
import { b64json, decodeB64Json } from '../pay/wire'
import { servePaid, type PipelineDeps } from '../call/pipeline'
import type { A2aTask, TaskStore } from './tasks'
import type { Incoming } from './wire'

export const META = {
  status: 'x402.payment.status',
  required: 'x402.payment.required',
  payload: 'x402.payment.payload',
  receipts: 'x402.payment.receipts',
  error: 'x402.payment.error',
} as const

/** A JSON-RPC error to answer (with its HTTP status: never 200 for a failure). */
export class RpcError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The service's input as the JSON body of POST /api/v1/<slug> (the resource the 402 names, as over HTTP and MCP). */
const paidRequest = (slug: string, input: unknown, signal: AbortSignal, payment: unknown, stream: boolean) =>
  new Request(`http://a2a.internal/api/v1/${slug}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(stream ? { accept: 'text/event-stream' } : {}),
      ...(payment === undefined ? {} : { 'payment-signature': b64json(payment) }),
    },
    body: JSON.stringify(input),
    signal,
  })

export interface A2aDeps extends PipelineDeps {
  services: CatalogService[]
}

/**
 * What a message asks for: the task, and whether its call runs now (with `payment`, when there is one). A waiting
 * task that gets its payment is `working` from then on (another message on it gets the task back, never a second
 * run); `restore` puts it back as it was when the call is refused before any payment work (an error answer).
 */
export interface Begun {
  task: A2aTask
  run: boolean
  payment?: unknown
  restore?: () => void
}

export type Runner = ReturnType<typeof createRunner>

export function createRunner(deps: A2aDeps, store: TaskStore) {
  const bySlug = new Map(deps.services.map((s) => [s.slug, s]))

  /** The task's call through the pipeline (`stream`: asks for the streamed answer, which model services give). */
  function serve(task: A2aTask, client: string, signal: AbortSignal, payment: unknown, stream: boolean) {
    const svc = bySlug.get(task.skill)!
    return servePaid(svc, paidRequest(svc.slug, task.input, signal, payment, stream), newRequestId(), client, deps)
  }

  /** Runs the task's call (with the payment, when there is one) and moves the task to the state its answer says. */
  async function runCall(task: A2aTask, client: string, signal: AbortSignal, payment?: unknown): Promise<A2aTask> {
    return fromAnswer(task, await serve(task, client, signal, payment, false), client, payment)
  }

  /** A JSON answer of the pipeline as the task's new state. */
  async function fromAnswer(task: A2aTask, res: Response, client: string, payment: unknown): Promise<A2aTask> {
    const text = await res.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    const receipt = decodeB64Json(res.headers.get('payment-response') ?? res.headers.get('x-payment-response'))
    if (res.status === 200) return completed(task, body, receipt)
    const message = isRecord(body) && typeof body.message === 'string' ? body.message : undefined
    const required = res.status === 402 ? decodeB64Json(res.headers.get('payment-required')) : undefined
    if (required) {
      if (payment === undefined)
        return save(
          task,
          'input-required',
          'Payment is required: sign one of x402.payment.required.accepts and send it on this task in x402.payment.payload.',
          {
            [META.status]: 'payment-required',
            [META.required]: required,
          },
        )
      const reason = typeof required.error === 'string' ? required.error : 'payment_refused'
      task.receipts.push(receipt ?? { success: false, errorReason: reason, transaction: '' })
      return save(
        task,
        'input-required',
        `${message ?? 'The payment was refused.'} Nothing was charged; pay again with one of x402.payment.required.accepts.`,
        {
          [META.status]: 'payment-failed',
          [META.error]: reason,
          [META.required]: required,
          [META.receipts]: task.receipts,
        },
      )
    }
    // Refused before any payment work (bad input, unavailable service), or retryable (throttled, payments down):
    // an error answer, the task as it was.
    if (payment === undefined || res.status === 429 || res.status === 503) {
      const error = errorOf(body, res.status)
      throw new RpcError(res.status, res.status >= 500 ? -32603 : -32602, String(error.message), error)
    }
    // The client left before the answer: nothing was charged (the pipeline released it); the same payment may come
    // again on the task, as the same payment may over HTTP.
    if (res.status === 499)
      return awaitPayment(
        task,
        client,
        'The client left before the answer; nothing was charged. The task waits for its payment again.',
      )
    return failed(task, body, res.status)
  }

  /**
   * The task waits for a payment again (`input-required`), with the requirements of a fresh 402; `reason`: why the
   * last one did not pay (a settlement that did not complete).
   */
  async function awaitPayment(task: A2aTask, client: string, text: string, reason?: string): Promise<A2aTask> {
    let required: unknown
    try {
      const res = await serve(task, client, new AbortController().signal, undefined, false)
      required = decodeB64Json(res.headers.get('payment-required'))
      await res.body?.cancel()
    } catch {
      /* the requirements are in the card and in any new task's 402 */
    }
    if (reason) task.receipts.push({ success: false, errorReason: reason, transaction: '' })
    return save(task, 'input-required', text, {
      [META.status]: reason ? 'payment-failed' : 'payment-required',
      ...(reason ? { [META.error]: reason, [META.receipts]: task.receipts } : {}),
      ...(required ? { [META.required]: required } : {}),
    })
  }

  /** Paid and done: the result, and the settlement response (with the signed receipt) added to the receipts. */
  function completed(task: A2aTask, result: unknown, receipt: unknown): A2aTask {
    task.receipts.push(receipt ?? {})
    return save(
      task,
      'completed',
      'Paid and done: the result is the artifact; the receipt is in x402.payment.receipts.',
      {
        [META.status]: 'payment-completed',
        [META.receipts]: task.receipts,
      },
      result,
    )
  }

  /** The call failed after its payment was admitted (the pipeline's error body): nothing charged. */
  function failed(task: A2aTask, body: unknown, status: number): A2aTask {
    const error = errorOf(body, status)
    task.receipts.push({ success: false, errorReason: String(error.code), transaction: '' })
    return save(task, 'failed', `${String(error.message)} Nothing was charged.`, {
      [META.status]: 'payment-failed',
      [META.error]: String(error.code),
      [META.receipts]: task.receipts,
      error,
    })
  }

  function save(
    task: A2aTask,
    state: A2aTask['state'],
    text: string,
    metadata: Record<string, unknown>,
    result?: unknown,
  ) {
    Object.assign(task, { state, text, metadata, result })
    store.put(task)
    return task
  }

  /** A message: a new task (data part `{skill, input}`), or the payment (or its rejection) of a waiting task. */
  function begin(m: Incoming): Begun {
    const payload = m.metadata[META.payload]
    if (payload !== undefined && !isRecord(payload))
      throw new RpcError(400, -32602, `${META.payload} must be a PaymentPayload object.`)
    if (m.taskId) {
      const task = store.get(m.taskId)
      if (!task) throw new RpcError(404, -32001, `Task not found: ${m.taskId} (tasks are kept for an hour).`)
      if (task.state !== 'input-required') return { task, run: false }
      if (m.metadata[META.status] === 'payment-rejected')
        return {
          task: save(task, 'canceled', 'The payment was rejected by the client; nothing was charged.', {
            [META.status]: 'payment-rejected',
          }),
          run: false,
        }
      if (payload === undefined)
        throw new RpcError(
          400,
          -32602,
          `This task waits for its payment: send ${META.payload} (a signed PaymentPayload) in the message metadata.`,
        )
      const { text, metadata } = task
      save(task, 'working', 'Payment submitted: the call runs; the task completes once it is paid and done.', {
        [META.status]: 'payment-submitted',
      })
      return { task, run: true, payment: payload, restore: () => save(task, 'input-required', text, metadata) }
    }
    const skill = m.data?.skill
    if (typeof skill !== 'string' || !bySlug.has(skill))
      throw new RpcError(
        400,
        -32602,
        typeof skill === 'string'
          ? `Unknown skill: ${skill}. The agent card lists the skills.`
          : 'Send a data part {"skill": "<skill id>", "input": {...}}; the agent card lists the skills.',
      )
    const input = m.data?.input ?? {}
    if (!isRecord(input)) throw new RpcError(400, -32602, "`input` must be a JSON object (the skill's input).")
    const task: A2aTask = {
      id: crypto.randomUUID(),
      contextId: m.contextId ?? crypto.randomUUID(),
      skill,
      input,
      state: 'input-required',
      text: '',
      metadata: {},
      receipts: [],
      updatedAt: 0,
    }
    // A payment sent with the first message pays at once (the payer read the price from the card or a 402).
    return { task, run: true, payment: payload }
  }

  async function send(m: Incoming, client: string, signal: AbortSignal): Promise<A2aTask> {
    const b = begin(m)
    if (!b.run) return b.task
    try {
      return await runCall(b.task, client, signal, b.payment)
    } catch (e) {
      b.restore?.()
      throw e
    }
  }

  function get(id: string): A2aTask {
    const task = store.get(id)
    if (!task) throw new RpcError(404, -32001, `Task not found: ${id}.`)
    return task
  }

  function cancel(id: string): A2aTask {
    const task = get(id)
    if (task.state !== 'input-required')
      throw new RpcError(
        409,
        -32002,
        `Task ${id} is ${task.state}; only a task waiting for its payment can be canceled.`,
      )
    return save(task, 'canceled', 'Canceled by the client; nothing was charged.', { [META.status]: 'payment-rejected' })
  }

  return { send, get, cancel, begin, serve, fromAnswer, completed, failed, awaitPayment, save }
}

/** The error object of a pipeline's error body (`{error: {code, message, ...}}`). */
function errorOf(body: unknown, status: number): Record<string, unknown> {
  return isRecord(body) && isRecord(body.error) ? body.error : { code: 'INTERNAL', message: `HTTP ${status}` }
}
