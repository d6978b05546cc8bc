/**
 * Server-Sent Events framing for streamed answers (docs/streaming.md): `event: <name>` + one `data:` line of JSON per
 * event, `: keep-alive` comments while nothing else is sent. The stream is fed by one writer and read by one client.
 * @module http/sse
 */
import { BASE_HEADERS } from './respond'

/** How often an idle stream sends a `: keep-alive` comment (proxies close connections idle for ~30-60 s). */
export const HEARTBEAT_MS = 15_000

/** True when the client asks for Server-Sent Events (`Accept: text/event-stream`). */
export const wantsEventStream = (req: Request): boolean =>
  /(^|[\s,])text\/event-stream\b/i.test(req.headers.get('accept') ?? '')

const encoder = new TextEncoder()

/** One event: its name and its data as one line of JSON (JSON never holds a raw newline). */
export const sseFrame = (event: string, data: unknown): Uint8Array =>
  encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)

const KEEP_ALIVE = encoder.encode(': keep-alive\n\n')

export interface EventWriter {
  /** Sends one event (ignored once the stream is closed or the client is gone). */
  send(event: string, data: unknown): void
  /** Ends the stream after what was sent. */
  close(): void
  readonly response: Response
}

/**
 * A streamed 200 answer. `onCancel` runs when the client goes away before `close()`. Heartbeats are sent every
 * `heartbeatMs` until the stream ends.
 */
export function eventStream(
  requestId: string,
  onCancel: () => void,
  heartbeatMs = HEARTBEAT_MS,
  headers: Record<string, string> = {},
): EventWriter {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let open = true
  const stop = () => {
    open = false
    clearInterval(timer)
  }
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
    },
    cancel() {
      if (!open) return
      stop()
      onCancel()
    },
  })
  const push = (bytes: Uint8Array) => {
    if (!open) return
    try {
      controller.enqueue(bytes)
    } catch {
      stop()
    }
  }
  const timer = setInterval(() => push(KEEP_ALIVE), heartbeatMs)
  timer.unref?.()
  return {
    send: (event, data) => push(sseFrame(event, data)),
    close() {
      if (!open) return
      stop()
      try {
        controller.close()
      } catch {
        /* already closed by the client */
      }
    },
    response: new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        ...BASE_HEADERS,
        'x-request-id': requestId,
        'cache-control': 'no-store, no-transform',
        'x-accel-buffering': 'no',
        ...headers,
      },
    }),
  }
}

/**
 * Passes an SSE body through, adding `: keep-alive` comments every `heartbeatMs` between its chunks (each chunk
 * must be whole events, as the MCP SDK writes them). `onEnd` runs once when it ends or the client goes away.
 */
export function withKeepAlive(
  body: ReadableStream<Uint8Array>,
  heartbeatMs: number,
  onEnd: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  let timer: ReturnType<typeof setInterval> | undefined
  let ended = false
  const end = () => {
    clearInterval(timer)
    if (ended) return
    ended = true
    onEnd()
  }
  return new ReadableStream<Uint8Array>({
    start(c) {
      timer = setInterval(() => {
        try {
          c.enqueue(KEEP_ALIVE)
        } catch {
          clearInterval(timer)
        }
      }, heartbeatMs)
      timer.unref?.()
    },
    async pull(c) {
      const { done, value } = await reader.read()
      if (!done) return c.enqueue(value)
      end()
      c.close()
    },
    cancel(reason) {
      end()
      return reader.cancel(reason)
    },
  })
}
