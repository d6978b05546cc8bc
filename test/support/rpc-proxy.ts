/**
 * A JSON-RPC proxy on loopback in front of a real node, for fault injection: counts calls per method, can
 * delay chosen methods, and can go down (connection refused answers 503) and come back.
 */
export interface RpcProxy {
  url: string
  calls: Map<string, number>
  total(): number
  delay: Map<string, number>
  down: boolean
  stop(): void
}

export function startRpcProxy(target: string): RpcProxy {
  const proxy: RpcProxy = {
    url: '',
    calls: new Map(),
    total: () => [...proxy.calls.values()].reduce((a, b) => a + b, 0),
    delay: new Map(),
    down: false,
    stop: () => server.stop(true),
  }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const body = await req.text()
      if (proxy.down) return new Response('node down', { status: 503 })
      let methods: string[] = []
      try {
        const j = JSON.parse(body)
        methods = (Array.isArray(j) ? j : [j]).map((x: { method: string }) => x.method)
      } catch { /* forwarded as is */ }
      let wait = 0
      for (const m of methods) {
        proxy.calls.set(m, (proxy.calls.get(m) ?? 0) + 1)
        wait = Math.max(wait, proxy.delay.get(m) ?? 0)
      }
      if (wait) await Bun.sleep(wait)
      const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      return new Response(await res.text(), { status: res.status, headers: { 'content-type': 'application/json' } })
    },
  })
  proxy.url = `http://127.0.0.1:${server.port}`
  return proxy
}
