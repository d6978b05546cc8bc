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
