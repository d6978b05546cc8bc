/**
 * A JSON-RPC proxy for settlement fault injection: per-method latency on the way in (before the node sees the
 * call) and on the way out (the node has acted, the answer is late), and per-method injected errors (a JSON-RPC
 * error, or an HTTP failure) for the next N calls (of a method, or of a method whose request contains a given text).
 * Counts calls per method. Loopback only.
 */
export interface Fault {
  /** JSON-RPC error to answer with (the node never sees the call)… */
  code?: number
  message?: string
  /** …or an HTTP status with no JSON body (a broken gateway). */
  http?: number
  /** Forward the call to the node first, then answer with the fault (the node acted; the caller cannot know). */
  afterForward?: boolean
  /** How many calls to affect; default 1. */
  times?: number
  /** Only calls whose request text contains this (any case, e.g. a function selector) are affected and counted. */
  match?: string
}

/** The two ways a transaction is sent (the first answers with its receipt, EIP-7966). */
export const SEND_METHODS = ['eth_sendRawTransactionSync', 'eth_sendRawTransaction']
/** Every answer that tells the sender its transaction was mined: the send itself and the receipt and block reads. */
export const MINED_ANSWERS = [
  ...SEND_METHODS,
  'eth_getBlockByNumber',
  'eth_getBlockReceipts',
  'eth_getTransactionReceipt',
]

export interface FaultProxy {
  url: string
  calls: Map<string, number>
  total(): number
  /** Transactions sent so far (either send method). */
  sends(): number
  delayIn: Map<string, number>
  delayOut: Map<string, number>
  /** Latency added to every call in each direction (ms), e.g. 25 for a hosted RPC. */
  latency: { in: number; out: number }
  faults: Map<string, Fault>
  /** The node is down: every call answers 503 without reaching it, until set back to false. */
  down: boolean
  stop(): void
}

export function startFaultProxy(target: string): FaultProxy {
  const proxy: FaultProxy = {
    url: '',
    calls: new Map(),
    total: () => [...proxy.calls.values()].reduce((a, b) => a + b, 0),
    sends: () => SEND_METHODS.reduce((n, m) => n + (proxy.calls.get(m) ?? 0), 0),
    delayIn: new Map(),
    delayOut: new Map(),
    latency: { in: 0, out: 0 },
    faults: new Map(),
    down: false,
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(req) {
      const body = await req.text()
      if (proxy.down) return new Response('node down', { status: 503 })
      let calls: Array<{ method: string; id: unknown }> = []
      try {
        const j = JSON.parse(body)
        calls = Array.isArray(j) ? j : [j]
      } catch {
        /* forwarded as is */
      }
      const methods = calls.map((c) => c.method)
      for (const m of methods) proxy.calls.set(m, (proxy.calls.get(m) ?? 0) + 1)
      const longest = (d: Map<string, number>) => Math.max(0, ...methods.map((m) => d.get(m) ?? 0))
      let fault: Fault | undefined
      if (calls.length === 1) {
        fault = proxy.faults.get(methods[0])
        if (fault?.match && !body.toLowerCase().includes(fault.match.toLowerCase())) fault = undefined
        if (fault) {
          const left = (fault.times ?? 1) - 1
          if (left <= 0) proxy.faults.delete(methods[0])
          else proxy.faults.set(methods[0], { ...fault, times: left })
        }
      }
      const answerFault = (f: Fault) =>
        f.http
          ? new Response('bad gateway', { status: f.http })
          : Response.json({
              jsonrpc: '2.0',
              id: calls[0].id,
              error: { code: f.code ?? -32000, message: f.message ?? 'injected fault' },
            })
      const wait = Math.max(proxy.latency.in, longest(proxy.delayIn))
      if (wait) await Bun.sleep(wait)
      if (fault && !fault.afterForward) return answerFault(fault)
      const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      const text = await res.text()
      const out = Math.max(proxy.latency.out, longest(proxy.delayOut))
      if (out) await Bun.sleep(out)
      if (fault) return answerFault(fault)
      return new Response(text, { status: res.status, headers: { 'content-type': 'application/json' } })
    },
  })
  proxy.url = `http://127.0.0.1:${server.port}`
  return proxy
}
