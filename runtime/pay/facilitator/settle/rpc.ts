/** A minimal JSON-RPC client for the settlement pipeline: one POST per call, a timeout, typed errors, no retries. */

/** The node answered with a JSON-RPC error (the request reached it). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly method: string,
    readonly data?: string,
  ) {
    super(message)
  }
}

/** The node could not be reached or answered garbage: the outcome of the call is unknown. */
export class RpcTransportError extends Error {}

export type Rpc = <T = unknown>(method: string, params?: unknown[], timeoutMs?: number) => Promise<T>

/** A JSON-RPC caller for `url`. Error messages never contain the URL (providers put API keys in the path). */
export function createRpc(url: string, defaultTimeoutMs = 10_000): Rpc {
  let id = 0
  return async <T>(method: string, params: unknown[] = [], timeoutMs = defaultTimeoutMs): Promise<T> => {
    let res: Response
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (e) {
      throw new RpcTransportError(
        `${method}: RPC unreachable (${(e as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : 'connection failed'})`,
      )
    }
    let body: { result?: T; error?: { code?: number; message?: string; data?: unknown } }
    try {
      body = (await res.json()) as typeof body
    } catch {
      throw new RpcTransportError(`${method}: RPC answered HTTP ${res.status} without JSON`)
    }
    if (body.error) {
      const d = body.error.data
      const data =
        typeof d === 'string'
          ? d
          : typeof (d as { data?: unknown })?.data === 'string'
            ? (d as { data: string }).data
            : undefined
      throw new RpcError(
        Number(body.error.code ?? 0),
        String(body.error.message ?? 'error').slice(0, 300),
        method,
        data,
      )
    }
    if (!res.ok || !('result' in body)) throw new RpcTransportError(`${method}: RPC answered HTTP ${res.status}`)
    return body.result as T
  }
}

export const hexToBig = (h: string | null | undefined): bigint => (h ? BigInt(h) : 0n)
export const toHexQ = (n: bigint | number): `0x${string}` => `0x${n.toString(16)}`

/** True for a node's revert answer (code 3 or "execution reverted"): the call itself is invalid, retrying is pointless. */
export const isRevertError = (e: unknown) => e instanceof RpcError && (e.code === 3 || /revert/i.test(e.message))

/**
 * The same caller for read-only calls, retried on transport errors and transient node errors (e.g. anvil's
 * "block out of range" for `latest` while it mines under load, seen to last over 150 ms): up to 4 more tries,
 * 50, 100, 150 and 200 ms apart. Never for sends; never for a revert (the call itself is invalid).
 */
export function withReadRetry(rpc: Rpc, tries = 5): Rpc {
  return async <T>(method: string, params?: unknown[], timeoutMs?: number): Promise<T> => {
    for (let i = 1; ; i++) {
      try {
        return await rpc<T>(method, params, timeoutMs)
      } catch (e) {
        if (i >= tries || isRevertError(e)) throw e
        await new Promise((r) => setTimeout(r, 50 * i))
      }
    }
  }
}
