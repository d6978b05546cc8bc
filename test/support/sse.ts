/** Reads a Server-Sent Events answer one event at a time, as a client does while the stream is still open. */

export interface SseEvent {
  /** The event name; `:` for a comment line (a keep-alive). */
  event: string
  data: any
}

export function sseReader(res: Response) {
  const reader = res.body!.getReader()
  const dec = new TextDecoder()
  let buf = ''
  let done = false
  const parse = (block: string): SseEvent => {
    if (block.startsWith(':')) return { event: ':', data: block.slice(1).trim() }
    let event = 'message'
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim()
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart())
    }
    return { event, data: JSON.parse(data.join('\n')) }
  }
  /** The next event (comments too when `comments`), or null at the end of the stream. */
  async function next(comments = false): Promise<SseEvent | null> {
    for (;;) {
      const cut = buf.indexOf('\n\n')
      if (cut >= 0) {
        const block = buf.slice(0, cut)
        buf = buf.slice(cut + 2)
        const e = parse(block)
        if (e.event === ':' && !comments) continue
        return e
      }
      if (done) return null
      const r = await reader.read()
      if (r.done) done = true
      else buf += dec.decode(r.value, { stream: true })
    }
  }
  /** Every remaining event (comments left out). */
  async function rest(): Promise<SseEvent[]> {
    const all: SseEvent[] = []
    for (let e = await next(); e; e = await next()) all.push(e)
    return all
  }
  return { next, rest, cancel: () => reader.cancel() }
}
