/**
 * A loopback OpenAI-compatible server for model tests: POST /v1/chat/completions answers from a per-test queue of
 * scripted replies and records every request body. No internet, no sleeping: "hang" replies wait for the client
 * to give up (its timeout aborts the connection). A `stream` reply answers a `stream: true` request with OpenAI's
 * chunk format (Server-Sent Events, usage in the last chunk); it can pause after `hold` chunks until `release()`
 * (the test decides when the model "finishes") and break off after `breakAfter` chunks.
 */

/** `usage: false`: the reply reports no token usage (as many OpenAI-compatible servers do, in streams especially). */
export type FakeReply =
  | { text: string; model?: string; tokens?: number; usage?: false }
  | { json: unknown; model?: string; tokens?: number; usage?: false }
  | { status: number; body?: unknown }
  | { hang: true }
  | {
      /** Content chunks, or `count` copies of `text` produced one by one (a long answer without holding it). */
      stream: string[] | { text: string; count: number }
      model?: string
      tokens?: number
      usage?: false
      /** Pause after this many chunks until `release()` (`'finish'`: after the finish chunk, before usage and [DONE]). */
      hold?: number | 'finish'
      /** Close the connection after this many chunks, without a finish reason or [DONE]. */
      breakAfter?: number
      /** End the body cleanly after this many chunks, without a finish reason or [DONE] (a truncated stream). */
      endAfter?: number
    }

export interface ChatBody {
  model: string
  max_tokens?: number
  stream?: boolean
  stream_options?: { include_usage?: boolean }
  response_format?: { type: string; json_schema?: { schema?: unknown } }
  messages: Array<{
    role: string
    content: string | Array<{ type: string; text?: string; image_url?: { url: string } }>
  }>
}

export interface FakeOpenAI {
  /** Base URL including `/v1`. */
  url: string
  /** Every request body received, in order. */
  requests: ChatBody[]
  /** The W3C `traceparent` header of every request, in order (null when absent). */
  traceparents: Array<string | null>
  /** Queues replies for the next requests. */
  reply(...r: FakeReply[]): void
  /** Clears the queue and the recorded requests. */
  reset(): void
  /** True while a `stream` reply is paused at its `hold`. */
  readonly holding: boolean
  /** Resolves once a `stream` reply reaches its `hold`. */
  held(): Promise<void>
  /** Lets a paused `stream` reply go on. */
  release(): void
  /** Chunks sent by `stream` replies so far. */
  readonly chunksSent: number
  close(): void
}

/** Total tokens reported for a reply unless it sets `tokens`. */
export const DEFAULT_TOKENS = 137

const enc = new TextEncoder()

export function startFakeOpenAI(): FakeOpenAI {
  const queue: FakeReply[] = []
  const requests: ChatBody[] = []
  const traceparents: Array<string | null> = []
  let n = 0
  let holding = false
  let chunksSent = 0
  const onHeld: Array<() => void> = []
  let releaseHold: (() => void) | undefined
  /** OpenAI's streamed answer: one chunk per content piece, a finish chunk, a usage chunk, [DONE]. */
  const streamed = (r: Extract<FakeReply, { stream: unknown }>, body: ChatBody, signal: AbortSignal) => {
    const id = `chatcmpl-fake-${++n}`
    const model = r.model ?? `${body.model}-2025-fake`
    const total = r.tokens ?? DEFAULT_TOKENS
    const list = Array.isArray(r.stream) ? r.stream : undefined
    const count = list ? list.length : (r.stream as { count: number }).count
    const piece = (i: number) => (list ? list[i]! : (r.stream as { text: string }).text)
    const frame = (choices: unknown[], usage: unknown = null) =>
      enc.encode(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model, choices, usage })}\n\n`,
      )
    let i = 0
    let ended = false
    const pause = async () => {
      await new Promise<void>((resolve) => {
        holding = true
        releaseHold = resolve
        signal.addEventListener('abort', () => resolve(), { once: true })
        for (const f of onHeld.splice(0)) f()
      })
      holding = false
      releaseHold = undefined
    }
    return new ReadableStream<Uint8Array>({
      async pull(c) {
        if (ended) return
        if (r.hold !== undefined && i === r.hold && !signal.aborted) await pause()
        if (r.endAfter !== undefined && i >= r.endAfter) {
          ended = true
          c.close()
          return
        }
        if (r.breakAfter !== undefined && i >= r.breakAfter) {
          ended = true
          c.error(new Error('fake-openai: stream broken off'))
          return
        }
        if (i < count) {
          c.enqueue(
            frame([
              {
                index: 0,
                delta: { ...(i === 0 ? { role: 'assistant' } : {}), content: piece(i) },
                finish_reason: null,
              },
            ]),
          )
          i++
          chunksSent++
          return
        }
        ended = true
        c.enqueue(frame([{ index: 0, delta: {}, finish_reason: 'stop' }]))
        if (r.hold === 'finish' && !signal.aborted) {
          await pause()
          if (signal.aborted) return c.close()
        }
        if (body.stream_options?.include_usage && r.usage !== false)
          c.enqueue(frame([], { prompt_tokens: total - 37, completion_tokens: 37, total_tokens: total }))
        c.enqueue(enc.encode('data: [DONE]\n\n'))
        c.close()
      },
    })
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      if (req.method !== 'POST' || path !== '/v1/chat/completions')
        return Response.json({ error: { message: 'not found' } }, { status: 404 })
      const body = (await req.json()) as ChatBody
      requests.push(body)
      traceparents.push(req.headers.get('traceparent'))
      const r = queue.shift()
      if (!r) return Response.json({ error: { message: 'fake-openai: no scripted reply' } }, { status: 500 })
      if ('hang' in r) {
        return new Promise<Response>((resolve) =>
          req.signal.addEventListener('abort', () => resolve(new Response('aborted', { status: 499 }))),
        )
      }
      if ('stream' in r) {
        if (!body.stream)
          return Response.json(
            { error: { message: 'fake-openai: a stream reply needs stream: true' } },
            { status: 400 },
          )
        return new Response(streamed(r, body, req.signal), { headers: { 'content-type': 'text/event-stream' } })
      }
      if ('status' in r)
        return Response.json(r.body ?? { error: { message: `scripted HTTP ${r.status}`, type: 'fake' } }, {
          status: r.status,
        })
      const content = 'json' in r ? (typeof r.json === 'string' ? r.json : JSON.stringify(r.json)) : r.text
      // A plain reply to a streaming request: the same content as one chunk.
      if (body.stream)
        return new Response(
          streamed({ stream: [content], model: r.model, tokens: r.tokens, usage: r.usage }, body, req.signal),
          {
            headers: { 'content-type': 'text/event-stream' },
          },
        )
      const total = r.tokens ?? DEFAULT_TOKENS
      n++
      return Response.json({
        id: `chatcmpl-fake-${n}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: r.model ?? `${body.model}-2025-fake`,
        choices: [
          { index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null },
        ],
        ...(r.usage === false
          ? {}
          : { usage: { prompt_tokens: total - 37, completion_tokens: 37, total_tokens: total } }),
      })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    traceparents,
    reply: (...r) => void queue.push(...r),
    reset() {
      queue.length = 0
      requests.length = 0
      traceparents.length = 0
      releaseHold?.()
      chunksSent = 0
    },
    get holding() {
      return holding
    },
    get chunksSent() {
      return chunksSent
    },
    held: () => (holding ? Promise.resolve() : new Promise<void>((r) => onHeld.push(r))),
    release: () => releaseHold?.(),
    close: () => void server.stop(true),
  }
}

/** The system and user texts of a recorded request (the user text of a multi-part message joined). */
export function texts(body: ChatBody): { system: string; user: string; images: string[] } {
  const sys = body.messages.find((m) => m.role === 'system')?.content
  const u = body.messages.find((m) => m.role === 'user')?.content
  const parts = Array.isArray(u) ? u : [{ type: 'text', text: u ?? '' }]
  return {
    system: typeof sys === 'string' ? sys : '',
    user: parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text ?? '')
      .join('\n'),
    images: parts.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url),
  }
}
