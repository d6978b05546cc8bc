/**
 * GET /.well-known/agent-card.json (./card.ts) and POST /a2a: A2A's JSON-RPC over HTTP, both wires (./wire.ts),
 * each paid call through the pipeline with x402's A2A flow (./run.ts); streamed sends and followers answer
 * Server-Sent Events, one JSON-RPC response per event (./stream.ts). Errors are JSON-RPC errors with a 4xx/5xx
 * HTTP status (A2A clients read the JSON-RPC error of a non-2xx answer, streaming or not); a task that failed is a
 * task in state `failed`, as A2A says.
 * @module a2a/routes
 */
import { Elysia } from 'elysia'
import { parseJson, readBody } from '../http/body'
import { BASE_HEADERS, newRequestId } from '../http/respond'
import { eventStream } from '../http/sse'
import { ServiceError } from '../sdk'
import { asServiceError } from '../http/unexpected'
import { agentCard, X402_EXTENSION } from './card'
import { A2A_PATH, CARD_PATH } from './paths'
import { createRunner, RpcError, type A2aDeps } from './run'
import { createStreamer, type Streamed } from './stream'
import { TaskStore } from './tasks'
import { METHODS, readMessage, sendResult, taskIdOf, taskOut, updateOut, type Update, type Wire } from './wire'

type ServerLike = { requestIP(r: Request): { address: string } | null } | null

const HEADERS = { 'content-type': 'application/json; charset=utf-8', ...BASE_HEADERS, 'cache-control': 'no-store' }

const answer = (body: unknown, status: number, extra: Record<string, string>) =>
  new Response(JSON.stringify(body), { status, headers: { ...HEADERS, ...extra } })

export function a2aRoutes(deps: A2aDeps, clientOf: (req: Request, server: ServerLike) => string, version: string) {
  const card = JSON.stringify(agentCard(deps.services, deps.config, version))
  const runner = createRunner(deps, new TaskStore())
  const streamer = createStreamer(runner)
  const bodyLimit = deps.config.bodyLimitBytes + 64 * 1024

  async function handle(request: Request, client: string): Promise<Response> {
    // The extension is activated by naming it (A2A-Extensions, or v0.3's X-A2A-Extensions); the answer confirms it.
    const asked = `${request.headers.get('a2a-extensions') ?? ''},${request.headers.get('x-a2a-extensions') ?? ''}`
    const extra: Record<string, string> = asked.includes(X402_EXTENSION) ? { 'a2a-extensions': X402_EXTENSION } : {}
    let id: unknown = null
    try {
      let rpc: unknown
      try {
        rpc = parseJson(await readBody(request, bodyLimit, deps.config.bodyTimeoutMs))
      } catch (e) {
        const err = e instanceof ServiceError ? e : new ServiceError(400, 'INVALID_JSON', 'The body could not be read.')
        throw new RpcError(err.status === 422 ? 400 : err.status, -32700, err.message)
      }
      const r = rpc as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown } | null
      if (!r || typeof r !== 'object' || Array.isArray(r) || r.jsonrpc !== '2.0' || typeof r.method !== 'string')
        throw new RpcError(400, -32600, 'Invalid Request: send one JSON-RPC 2.0 request object.')
      id = typeof r.id === 'string' || typeof r.id === 'number' ? r.id : null
      const m = METHODS[r.method]
      if (!m)
        throw new RpcError(
          404,
          -32601,
          `Method not found: ${r.method}. This agent answers SendMessage, SendStreamingMessage, GetTask, CancelTask, SubscribeToTask (A2A 1.0) and message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe (A2A 0.3).`,
        )
      let result: unknown
      if (m.op === 'send' || m.op === 'stream') {
        const msg = readMessage(r.params)
        if (!msg) throw new RpcError(400, -32602, 'params.message with parts is required.')
        if (m.op === 'stream') {
          // the paid call's client is this connection: its leaving (or the stream's reader cancelling) aborts it
          const gone = new AbortController()
          const signal = AbortSignal.any([request.signal, gone.signal])
          return events(id, m.wire, await streamer.stream(msg, client, signal), gone, signal, extra)
        }
        result = sendResult(await runner.send(msg, client, request.signal), m.wire)
      } else if (m.op === 'subscribe') {
        const taskId = taskIdOf(r.params)
        if (!taskId) throw new RpcError(400, -32602, 'params.id (the task id) is required.')
        const gone = new AbortController()
        const signal = AbortSignal.any([request.signal, gone.signal])
        return events(id, m.wire, streamer.subscribe(taskId), gone, signal, extra)
      } else {
        const taskId = taskIdOf(r.params)
        if (!taskId) throw new RpcError(400, -32602, 'params.id (the task id) is required.')
        result = taskOut(m.op === 'get' ? runner.get(taskId) : runner.cancel(taskId), m.wire)
      }
      return answer({ jsonrpc: '2.0', id, result }, 200, extra)
    } catch (e) {
      if (e instanceof RpcError)
        return answer(
          {
            jsonrpc: '2.0',
            id,
            error: { code: e.code, message: e.message, ...(e.data === undefined ? {} : { data: e.data }) },
          },
          e.httpStatus,
          extra,
        )
      const err = asServiceError(e, deps.log, { route: A2A_PATH }, 'a2a request failed')
      return answer({ jsonrpc: '2.0', id, error: { code: -32603, message: err.message } }, err.status, extra)
    }
  }

  /** A streamed answer: the task, then its updates until the last (one JSON-RPC response per event). */
  function events(
    id: unknown,
    wire: Wire,
    streamed: Streamed,
    gone: AbortController,
    signal: AbortSignal,
    extra: Record<string, string>,
  ): Response {
    const w = eventStream(newRequestId(), () => gone.abort(), deps.config.streamHeartbeatMs, extra)
    const send = (u: Update) => w.send('message', { jsonrpc: '2.0', id, result: updateOut(streamed.task, u, wire) })
    send({ kind: 'task' })
    if (!streamed.follow) w.close()
    else
      void streamed
        .follow(send, signal)
        .catch((e) => deps.log.error('a2a stream failed', { error: (e as Error).message, task: streamed.task.id }))
        .finally(() => w.close())
    return w.response
  }

  return new Elysia({ name: 'a2a' })
    .get(CARD_PATH, () => new Response(card, { headers: { ...HEADERS, 'cache-control': 'public, max-age=300' } }))
    .post(A2A_PATH, ({ request, server }) => handle(request, clientOf(request, server)), {
      parse: 'none',
      detail: { hide: true },
    })
}
