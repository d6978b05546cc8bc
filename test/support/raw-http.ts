import { connect } from 'node:net'

/**
 * Sends `request` byte for byte over a fresh TCP connection to 127.0.0.1:`port` and returns the answer's status,
 * head and body once the server closes (send `connection: close`). For what fetch would not send: malformed Host
 * headers, hand-made chunking.
 */
export const rawHttp = (port: number, request: string) =>
  new Promise<{ status: number; head: string; body: string }>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(request))
    let out = ''
    s.on('data', (d) => (out += d))
    s.on('close', () => {
      const end = out.indexOf('\r\n\r\n')
      resolve({ status: Number(out.split(' ')[1]), head: out.slice(0, end), body: out.slice(end + 4) })
    })
    s.on('error', reject)
  })

/**
 * The head of the answer to `request` (status line and every header up to the blank line) exactly as its bytes
 * came off a fresh TCP connection to 127.0.0.1:`port`: what a proxy reads into its header buffer. The connection is
 * dropped once the blank line arrived.
 */
export const rawHead = (port: number, request: string) =>
  new Promise<{ status: number; bytes: number; head: string }>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(request))
    let out = Buffer.alloc(0)
    s.on('data', (d: Buffer) => {
      out = Buffer.concat([out, d])
      const end = out.indexOf('\r\n\r\n')
      if (end < 0) return
      s.destroy()
      const head = out.subarray(0, end + 4).toString('latin1')
      resolve({ status: Number(head.split(' ')[1]), bytes: end + 4, head })
    })
    s.on('error', reject)
    s.on('close', () => reject(new Error(`the connection closed before the end of the head (${out.length} bytes)`)))
  })

/** An HTTP/1.1 request as bytes: `body` with its Content-Length; the connection asked to close after the answer. */
export function requestBytes(
  method: string,
  path: string,
  o: { body?: string; headers?: Record<string, string> } = {},
): string {
  const headers = {
    host: '127.0.0.1',
    connection: 'close',
    ...(o.body !== undefined
      ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(o.body)) }
      : {}),
    ...o.headers,
  }
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`)
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n${o.body ?? ''}`
}
