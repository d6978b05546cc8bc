import type { SolanaLedger } from './ledger'
import { methods, RpcError } from './methods'

/** Largest request body served (a wire transaction in base64 is under 2 KiB). */
export const MAX_RPC_BODY_BYTES = 64 * 1024

type Id = string | number | null

const reply = (
  id: Id,
  body: { result: unknown } | { error: { code: number; message: string; data?: unknown } },
  status = 200,
) =>
  new Response(
    // Solana's RPC writes integers as JSON numbers, and kit parses them back as bigints: keep every digit.
    JSON.stringify({ jsonrpc: '2.0', id, ...body }, (_k, v) => (typeof v === 'bigint' ? `\u0000big:${v}` : v)).replace(
      /"\\u0000big:(-?\d+)"/g,
      '$1',
    ),
    { status, headers: { 'content-type': 'application/json' } },
  )

const failure = (id: Id, code: number, message: string, status = 200, data?: unknown) =>
  reply(id, { error: data === undefined ? { code, message } : { code, message, data } }, status)

const validId = (id: unknown): id is Id =>
  id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))

/** Answers one HTTP request with a JSON-RPC 2.0 response over `ledger` (single requests; kit sends no batches). */
export async function handleRpc(ledger: SolanaLedger, request: Request): Promise<Response> {
  if (request.method !== 'POST') return failure(null, -32600, 'Invalid request: POST a JSON-RPC 2.0 body', 405)
  const length = Number(request.headers.get('content-length') ?? 0)
  if (length > MAX_RPC_BODY_BYTES) return failure(null, -32600, 'Invalid request: body too large', 413)
  let body: unknown
  try {
    const bytes = await request.arrayBuffer()
    if (bytes.byteLength > MAX_RPC_BODY_BYTES) return failure(null, -32600, 'Invalid request: body too large', 413)
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return failure(null, -32700, 'Parse error')
  }
  if (Array.isArray(body)) return failure(null, -32600, 'Invalid request: batches are not served')
  if (!body || typeof body !== 'object') return failure(null, -32600, 'Invalid request')
  const { jsonrpc, id = null, method, params = [] } = body as Record<string, unknown>
  if (!validId(id)) return failure(null, -32600, 'Invalid request: id')
  if (jsonrpc !== '2.0' || typeof method !== 'string') return failure(id, -32600, 'Invalid request')
  if (!Array.isArray(params)) return failure(id, -32602, 'Invalid params: expected an array')
  const run = Object.hasOwn(methods, method) ? methods[method] : undefined
  if (!run) return failure(id, -32601, 'Method not found')
  try {
    return reply(id, { result: run(ledger, params) })
  } catch (e) {
    if (e instanceof RpcError) return failure(id, e.code, e.message, 200, e.data)
    return failure(id, -32603, 'Internal error')
  }
}

/** The RPC on 127.0.0.1 (`port` 0: a free one). */
export function serveRpc(ledger: SolanaLedger, port = 0) {
  return Bun.serve({
    hostname: '127.0.0.1',
    port,
    maxRequestBodySize: MAX_RPC_BODY_BYTES,
    fetch: (request) => handleRpc(ledger, request),
  })
}
