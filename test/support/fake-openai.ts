/**
 * A loopback OpenAI-compatible server for model tests: POST /v1/chat/completions answers from a per-test queue of
 * scripted replies and records every request body. No internet, no sleeping: "hang" replies wait for the client
 * to give up (its timeout aborts the connection).
 */

export type FakeReply =
  | { text: string; model?: string; tokens?: number }
  | { json: unknown; model?: string; tokens?: number }
  | { status: number; body?: unknown }
  | { hang: true }

export interface ChatBody {
  model: string
  max_tokens?: number
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
  /** Queues replies for the next requests. */
  reply(...r: FakeReply[]): void
  /** Clears the queue and the recorded requests. */
  reset(): void
  close(): void
}

/** Total tokens reported for a reply unless it sets `tokens`. */
export const DEFAULT_TOKENS = 137

export function startFakeOpenAI(): FakeOpenAI {
  const queue: FakeReply[] = []
  const requests: ChatBody[] = []
  let n = 0
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const path = new URL(req.url).pathname
      if (req.method !== 'POST' || path !== '/v1/chat/completions')
        return Response.json({ error: { message: 'not found' } }, { status: 404 })
      const body = (await req.json()) as ChatBody
      requests.push(body)
      const r = queue.shift()
      if (!r) return Response.json({ error: { message: 'fake-openai: no scripted reply' } }, { status: 500 })
      if ('hang' in r) {
        return new Promise<Response>((resolve) =>
          req.signal.addEventListener('abort', () => resolve(new Response('aborted', { status: 499 }))),
        )
      }
      if ('status' in r)
        return Response.json(r.body ?? { error: { message: `scripted HTTP ${r.status}`, type: 'fake' } }, {
          status: r.status,
        })
      const content = 'json' in r ? (typeof r.json === 'string' ? r.json : JSON.stringify(r.json)) : r.text
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
        usage: { prompt_tokens: total - 37, completion_tokens: 37, total_tokens: total },
      })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    reply: (...r) => void queue.push(...r),
    reset() {
      queue.length = 0
      requests.length = 0
    },
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
