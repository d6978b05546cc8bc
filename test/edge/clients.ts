/**
 * What the proxy tests (test/edge/driver.ts) need besides the official clients: a 402 compared across origins, a
 * client on another loopback address, and a stand-in upstream that records a proxy's own probes.
 */
import { request } from 'node:http'

/** A PaymentRequired with its resource URL cut to path and query (through a proxy it names the proxy's address). */
export function sameOrigin(required: { resource?: { url?: string } }) {
  const url = required.resource?.url
  if (!url) return required
  const { pathname, search } = new URL(url)
  return { ...required, resource: { ...required.resource, url: pathname + search } }
}

/** POSTs JSON to `url` from the local address `from` (a loopback address other than the proxy's); the status. */
export function postFrom(
  from: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<number> {
  const u = new URL(url)
  const data = JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)), ...headers },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(data)
  })
}

/**
 * A stand-in upstream that receives a proxy's health probes: it records each request (method, path, Host, whether it was forwarded for a client) and
 * answers it with the real server's answer to the same request (asked with the same Host), recorded too.
 */
export function probeRecorder(server: string) {
  const seen: Array<{ method: string; path: string; host: string | null; forwarded: boolean; status: number }> = []
  const srv = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      const host = req.headers.get('host')
      const res = await fetch(server + url.pathname, { method: req.method, headers: host ? { host } : {} })
      seen.push({
        method: req.method,
        path: url.pathname,
        host,
        forwarded: req.headers.has('x-forwarded-for'),
        status: res.status,
      })
      return new Response(await res.arrayBuffer(), {
        status: res.status,
        headers: { 'content-type': res.headers.get('content-type') ?? 'text/plain' },
      })
    },
  })
  return { address: `127.0.0.1:${srv.port}`, seen, stop: () => srv.stop(true) }
}
