/**
 * One streamed call (docs/streaming.md), whatever pays for it: the handler runs with a sink for its text; the
 * answer starts with the first chunk (an error before it is a normal HTTP error), every chunk is an `event: delta`,
 * and the call ends with one `event: result` or one `event: error`, both from the one `finish` that is handed the
 * handler's outcome (a result, an error, or the client gone), as a JSON answer's is. A client that leaves once text
 * was sent stops the handler; if it completed anyway, its result is finished (delivered output is paid).
 * @module stream/call
 */
import { ClientGone } from '../../http/disconnect'
import { errorBody, errorResponse } from '../../http/respond'
import { eventStream } from '../../http/sse'
import { ServiceError, type StreamSink } from '../../sdk'
import type { Outcome } from '../../pay/server/doors'

export type Finished =
  | { ok: true; data: unknown }
  /** `response`: the HTTP answer while nothing was streamed yet; `error`: the final event once it was. */
  | { ok: false; error: ServiceError; response: Response }

export interface StreamedCall {
  requestId: string
  /** The request's signal: aborted when the client disconnects. */
  signal: AbortSignal
  heartbeatMs: number
  /** Extra headers of the streamed answer. */
  headers?: Record<string, string>
  /** Runs the handler with `sink` for its text; `signal` aborts when the client leaves. */
  run(sink: StreamSink, signal: AbortSignal): Promise<unknown>
  /**
   * The handler's outcome: its complete, valid result (settle or count it), its error, or the client gone (release
   * what was held): the final event's data, or the error to answer.
   */
  finish(outcome: Outcome): Promise<Finished>
  /** Runs once when the call is over (the stream ended, or the answer was not a stream). */
  onEnd?(): void
}

export async function streamedCall(c: StreamedCall): Promise<Response> {
  let streaming = false
  try {
    const res = await answer(c)
    streaming = res.streaming
    return res.response
  } finally {
    if (!streaming) c.onEnd?.()
  }
}

/** The HTTP answer of a call over before anything was streamed, with an error (a result here is a stream of one event). */
const responseOf = (f: Finished, requestId: string): Response =>
  f.ok ? errorResponse(new ServiceError(500, 'INTERNAL', 'The call could not be completed.'), requestId) : f.response

async function answer(c: StreamedCall): Promise<{ response: Response; streaming: boolean }> {
  const abort = new AbortController()
  // running -> (finishing | failed); a client leaving while running fails the call, later it changes nothing.
  let state: 'running' | 'finishing' | 'failed' = 'running'
  let writer: ReturnType<typeof eventStream> | undefined
  const early: Array<[string, unknown]> = []
  let firstChunk!: () => void
  const first = new Promise<'chunk'>((r) => {
    firstChunk = () => r('chunk')
  })
  const emit = (event: string, data: unknown) => {
    if (state !== 'running') return
    if (writer) writer.send(event, data)
    else {
      early.push([event, data])
      firstChunk()
    }
  }
  const sink: StreamSink = {
    delta: (text) => {
      if (typeof text === 'string' && text) emit('delta', { text })
    },
    restart: (reason) => emit('restart', { reason: String(reason) }),
  }
  let leave!: () => void
  const gone = new Promise<'gone'>((r) => {
    leave = () => r('gone')
  })
  c.signal.addEventListener('abort', leave, { once: true })
  const work: Promise<Outcome> = (async () => {
    if (c.signal.aborted) throw new ClientGone()
    return c.run(sink, abort.signal)
  })().then(
    (out) => ({ ok: true, out }),
    (error) => ({ ok: false, error, gone: error instanceof ClientGone }),
  )
  /**
   * The client left after text was sent: the handler is stopped (no more deltas), then its outcome decides. Where
   * the work was actually cancelled, the call is gone (nothing charged); where it completed anyway (the model's
   * answer was complete before the cancellation reached it), it is finished as a result: delivered output is paid.
   */
  const left = async (): Promise<Finished> => {
    state = 'failed'
    abort.abort()
    const o = await work
    return safeFinish(o.ok ? o : { ok: false, error: new ClientGone(), gone: true })
  }
  /** The client left before anything was sent: stop the handler, nothing was delivered, nothing is finished for it. */
  const leftEarly = async (): Promise<Finished> => {
    state = 'failed'
    abort.abort()
    return safeFinish({ ok: false, error: new ClientGone(), gone: true })
  }
  const safeFinish = async (o: Outcome): Promise<Finished> => {
    try {
      return await c.finish(o)
    } catch (e) {
      const error =
        e instanceof ServiceError ? e : new ServiceError(500, 'INTERNAL', 'The call could not be completed.')
      return { ok: false, error, response: errorResponse(error, c.requestId) }
    }
  }

  const firstOutcome = await Promise.race([work, first, gone])
  if (firstOutcome === 'gone') {
    c.signal.removeEventListener('abort', leave)
    return { response: responseOf(await leftEarly(), c.requestId), streaming: false }
  }
  if (firstOutcome !== 'chunk') {
    // Over before any chunk: an error is a plain HTTP error; a result is a stream of one event.
    c.signal.removeEventListener('abort', leave)
    if (!firstOutcome.ok || c.signal.aborted) {
      state = 'failed'
      const isGone = c.signal.aborted || (!firstOutcome.ok && firstOutcome.gone)
      const f = await safeFinish({
        ok: false,
        error: firstOutcome.ok ? new ClientGone() : firstOutcome.error,
        gone: isGone,
      })
      return { response: responseOf(f, c.requestId), streaming: false }
    }
    state = 'finishing'
    const f = await safeFinish(firstOutcome)
    if (!f.ok) return { response: f.response, streaming: false }
    const w = eventStream(c.requestId, () => {}, c.heartbeatMs, c.headers)
    w.send('result', f.data)
    w.close()
    return { response: w.response, streaming: false }
  }

  const w = eventStream(c.requestId, leave, c.heartbeatMs, c.headers)
  writer = w
  for (const [event, data] of early) w.send(event, data)
  early.length = 0
  void (async () => {
    try {
      const next = await Promise.race([work, gone])
      if (next === 'gone' || c.signal.aborted) {
        await left()
        return
      }
      state = next.ok ? 'finishing' : 'failed'
      const f = await safeFinish(next)
      w.send(f.ok ? 'result' : 'error', f.ok ? f.data : errorBody(f.error, c.requestId))
    } catch {
      // Releasing failed (the store is down): the reconciler releases it; the client still gets a last event.
      const err = new ServiceError(500, 'INTERNAL', 'The call could not be completed; nothing was charged.')
      w.send('error', errorBody(err, c.requestId))
    } finally {
      c.signal.removeEventListener('abort', leave)
      w.close()
      c.onEnd?.()
    }
  })()
  return { response: w.response, streaming: true }
}
