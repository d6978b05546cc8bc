/**
 * Streamed sends (`message/stream`, v1.0 `SendStreamingMessage`) and following a task (`tasks/resubscribe`,
 * `SubscribeToTask`). A streamed send is the same flow as a send (./run.ts), its paid call asked as a stream: a
 * model service answers with the pipeline's Server-Sent Events (runtime/call/stream/paid.ts, docs/streaming.md), read
 * here into A2A events: the task (`working`, payment verified), each `delta` an artifact chunk (`<task>-text`,
 * appended; a `restart` replaces it), then the `result` as the result artifact and the task `completed` with the
 * settlement response in `x402.payment.receipts`, or the `error` as the task `failed` (nothing charged). Any other
 * answer (the 402, a refused payment, a service without a model) is the task as a send leaves it: one event.
 *
 * The money rules are the HTTP stream's, because it is the HTTP stream: the client's connection is the paid call's
 * (its leaving aborts the pipeline's request), so a client that leaves mid-answer cancels the model call and pays
 * nothing; one that leaves once the answer was complete pays for it (its result is kept: the same payment on the
 * task collects it); a budget-cut stream ends with its truncated result, charged for what it delivered. A stream
 * that ended without its result (the client left) puts the task back to `input-required`, as the 402 says.
 * @module a2a/stream
 */
import { META, RpcError, type Runner } from './run'
import type { A2aTask } from './tasks'
import { type Incoming, resultArtifact, type Update } from './wire'

/** What a streamed request answers: the task as the first event, then (`follow`) its updates until the last. */
export interface Streamed {
  task: A2aTask
  follow?: (emit: (u: Update) => void, signal: AbortSignal) => Promise<void>
}

/** At most this many followers (`tasks/resubscribe`) per streaming task. */
const MAX_FOLLOWERS = 8

const isEventStream = (res: Response) => (res.headers.get('content-type') ?? '').startsWith('text/event-stream')

/** The events of a Server-Sent Events body (keep-alive comments left out). */
async function* sseEvents(body: NonNullable<Response['body']>): AsyncGenerator<{ event: string; data: any }> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  let buf = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (value) buf += value
      for (let cut = buf.indexOf('\n\n'); cut >= 0; cut = buf.indexOf('\n\n')) {
        let event = ''
        let data = ''
        for (const line of buf.slice(0, cut).split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim()
          else if (line.startsWith('data:')) data += line.slice(5).trimStart()
        }
        buf = buf.slice(cut + 2)
        if (event && data) yield { event, data: JSON.parse(data) }
      }
      if (done) return
    }
  } finally {
    reader.releaseLock()
  }
}

export function createStreamer(runner: Runner) {
  /** Each task that streams now: its followers, and its answer's text so far (a follower's first chunk). */
  const live = new Map<string, { followers: Set<(u: Update) => void>; text: string }>()

  /** A streamed send. `signal`: the client's connection (its leaving is the paid call's client leaving). */
  async function stream(m: Incoming, client: string, signal: AbortSignal): Promise<Streamed> {
    const b = runner.begin(m)
    if (!b.run) return { task: b.task }
    let res: Response
    try {
      res = await runner.serve(b.task, client, signal, b.payment, true)
      if (!isEventStream(res) || !res.body) return { task: await runner.fromAnswer(b.task, res, client, b.payment) }
    } catch (e) {
      b.restore?.()
      throw e
    }
    const task = runner.save(
      b.task,
      'working',
      `Payment verified; the answer streams in the artifact ${b.task.id}-text. It is settled once complete (a client that leaves before is not charged).`,
      { [META.status]: 'payment-verified' },
    )
    const body = res.body
    live.set(task.id, { followers: new Set(), text: '' })
    return { task, follow: (emit) => follow(task, body, client, emit) }
  }

  async function follow(task: A2aTask, body: NonNullable<Response['body']>, client: string, emit: (u: Update) => void) {
    const state = live.get(task.id)!
    const publish = (u: Update) => {
      emit(u)
      for (const f of state.followers) f(u)
    }
    const text = { artifactId: `${task.id}-text`, name: 'answer' }
    let append = false
    let ended = false
    try {
      for await (const e of sseEvents(body)) {
        if (e.event === 'delta' && typeof e.data?.text === 'string') {
          state.text = append ? state.text + e.data.text : e.data.text
          publish({ kind: 'artifact', artifact: { ...text, part: { text: e.data.text } }, append, lastChunk: false })
          append = true
        } else if (e.event === 'restart') {
          // the next chunk replaces the text so far (A2A: an artifact update without `append`)
          append = false
          state.text = ''
          runner.save(
            task,
            'working',
            `The answer is produced again (${String(e.data?.reason ?? 'restart')}): the text so far is replaced.`,
            task.metadata,
          )
          publish({ kind: 'status', final: false })
        } else if (e.event === 'result') {
          const { payment, ...result } = e.data as Record<string, unknown>
          runner.completed(task, result, payment)
          publish({ kind: 'artifact', artifact: resultArtifact(task), append: false, lastChunk: true })
          ended = true
        } else if (e.event === 'error') {
          const error = (e.data?.error ?? {}) as { code?: unknown; reason?: unknown; message?: unknown }
          // a settlement that did not complete withholds the result: pay again (the same payment collects it
          // once a pending transfer confirms), as the 402 of a JSON answer says
          if (error.code === 'SETTLEMENT_FAILED')
            await runner.awaitPayment(
              task,
              client,
              `${String(error.message)} Nothing was charged.`,
              String(error.reason ?? error.code),
            )
          else runner.failed(task, e.data, 500)
          ended = true
        }
      }
    } finally {
      if (!ended)
        await runner.awaitPayment(
          task,
          client,
          'The stream ended before the result (the client left): if the answer was complete it was charged, and the same payment on this task collects it; otherwise nothing was charged and it may be paid again.',
        )
      publish({ kind: 'status', final: true })
      live.delete(task.id)
    }
  }

  /**
   * Follows a task: a streaming one from its text so far until its last event; one that waits for its payment is
   * its one event.
   */
  function subscribe(id: string): Streamed {
    const task = runner.get(id)
    if (task.state === 'completed' || task.state === 'failed' || task.state === 'canceled')
      throw new RpcError(
        409,
        -32004,
        `Task ${id} is ${task.state}: there is nothing more to follow (GetTask answers it).`,
      )
    const state = live.get(id)
    if (task.state !== 'working' || !state) return { task }
    const set = state.followers
    if (set.size >= MAX_FOLLOWERS)
      throw new RpcError(429, -32603, `Task ${id} has ${MAX_FOLLOWERS} followers already; poll it with GetTask.`)
    return {
      task,
      follow: (emit, signal) =>
        new Promise<void>((resolve) => {
          const stop = () => {
            set.delete(f)
            resolve()
          }
          const f = (u: Update) => {
            emit(u)
            if (u.kind === 'status' && u.final) stop()
          }
          // the text so far first (it replaces what the follower had), then what comes
          if (state.text)
            emit({
              kind: 'artifact',
              artifact: { artifactId: `${task.id}-text`, name: 'answer', part: { text: state.text } },
              append: false,
              lastChunk: false,
            })
          set.add(f)
          signal.addEventListener('abort', stop, { once: true })
        }),
    }
  }

  return { stream, subscribe }
}
