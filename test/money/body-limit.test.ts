/**
 * Every body over BODY_LIMIT_BYTES gets our JSON 413 in the one error shape, saying the limit: announced by
 * Content-Length (by one byte or by 100 MB), chunked in one huge chunk, chunked in many chunks, sent in one burst or
 * streamed; and the server's memory stays bounded while a client streams 100 MB at it. A real server process
 * (`runtime/index.ts`, the production listen options) and raw sockets, so the requests are exactly as sent.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { rss, type Child } from '../../bench/lib'
import { startServerProcess, UNREACHABLE_CHAIN } from '../support/server-process'

const LIMIT = 300_000
const MCP_LIMIT = LIMIT + 64 * 1024 // runtime/mcp/routes.ts: JSON-RPC envelopes get 64 KiB more
let c: Child
beforeAll(async () => {
  c = await startServerProcess({
    LOG_LEVEL: 'info',
    BODY_LIMIT_BYTES: String(LIMIT),
    ...UNREACHABLE_CHAIN, // every request below must be refused before any payment work
    ADMIN_TOKEN: 'body-limit-test-admin-token-0123456789',
  })
})
afterAll(() => c?.stop())

const head = (path: string, framing: string) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\npayment-signature: e30=\r\n${framing}\r\n`
const chunk = (size: number) => `${size.toString(16)}\r\n${'x'.repeat(size)}\r\n`
const chunked = (n: number, size: number) => chunk(size).repeat(n) + '0\r\n\r\n'

interface Answer {
  status: number
  headers: string
  body: string
}

/**
 * Writes `request` (all of it, or while `more()` gives bytes, yielding between writes) and resolves with the
 * first HTTP answer as soon as it is complete (by its Content-Length), or what came before the socket closed.
 * With `keepSending`, goes on writing after the answer until `more()` is exhausted.
 */
function send(request: string, more?: () => string | null, keepSending = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let out = ''
    let done = false
    const finish = () => {
      if (done) return
      done = true
      const end = out.indexOf('\r\n\r\n')
      s.destroy()
      resolve({
        status: Number(out.split(' ')[1]),
        headers: out.slice(0, end).toLowerCase(),
        body: out.slice(end + 4, end + 4 + Number(out.match(/content-length: (\d+)/i)?.[1] ?? out.length)),
      })
    }
    const s = connect(c.port, '127.0.0.1', async () => {
      s.write(request)
      if (!more) return
      for (let piece = more(); piece !== null && !done && !s.destroyed; piece = more()) {
        if (!s.write(piece)) await new Promise((r) => s.once('drain', r))
        await new Promise((r) => setImmediate(r))
      }
      if (!done && !s.destroyed) s.write('0\r\n\r\n')
      if (keepSending) finish()
    })
    s.on('data', (d) => {
      out += d
      const end = out.indexOf('\r\n\r\n')
      const length = Number(out.match(/content-length: (\d+)/i)?.[1] ?? -1)
      if (end >= 0 && length >= 0 && out.length >= end + 4 + length) {
        if (!keepSending) finish()
      }
    })
    s.on('close', finish)
    s.on('error', (e) => (out ? finish() : reject(e)))
  })
}

/** The JSON 413 in the one error shape, naming the limit. */
function expectJson413(a: Answer, limit = LIMIT) {
  expect(a.status).toBe(413)
  expect(a.headers).toContain('content-type: application/json')
  const j = JSON.parse(a.body)
  expect(Object.keys(j).sort()).toEqual(['error', 'request_id'])
  expect(j.error.code).toBe('PAYLOAD_TOO_LARGE')
  expect(j.error.message).toBe(`The body is larger than the limit of ${limit} bytes.`)
  expect(j.error.limit_bytes).toBe(limit)
  expect(j.request_id).toMatch(/^req_/)
}

const ROUTES = ['/api/v1/slugify', '/api/slugify', '/api/demo/explain']

test('Content-Length over the limit: JSON 413 on every body-reading route, whether the body follows or not', async () => {
  for (const path of ROUTES) {
    for (const length of [LIMIT + 1, LIMIT + 10_000, 100_000_000]) {
      // announced only (a client waiting for 100-continue, or a liar): refused from the header
      expectJson413(await send(head(path, `content-length: ${length}\r\n`)))
    }
    // the body really sent, just over the limit (past the old Bun cap of limit + 1 KiB)
    expectJson413(await send(head(path, `content-length: ${LIMIT + 10_000}\r\n`) + 'x'.repeat(LIMIT + 10_000)))
  }
})

test('chunked in one huge chunk: JSON 413 (the burst used to get a bodiless 413 from Bun)', async () => {
  for (const path of ROUTES) {
    for (const size of [LIMIT + 1, LIMIT + 10_000, 3_000_000]) {
      expectJson413(await send(head(path, 'transfer-encoding: chunked\r\n') + chunked(1, size)))
    }
    // one chunk announced as 100 MB, its first megabyte sent
    expectJson413(
      await send(head(path, 'transfer-encoding: chunked\r\n') + `${(100_000_000).toString(16)}\r\n${'x'.repeat(1e6)}`),
    )
  }
})

test('chunked in many chunks: JSON 413, in one burst or chunk by chunk', async () => {
  for (const path of ROUTES) {
    expectJson413(await send(head(path, 'transfer-encoding: chunked\r\n') + chunked(8, 50_000)))
    expectJson413(await send(head(path, 'transfer-encoding: chunked\r\n') + chunked(1000, 1000)))
    let n = 0
    expectJson413(await send(head(path, 'transfer-encoding: chunked\r\n'), () => (n++ < 40 ? chunk(16_384) : null)))
  }
})

test('a body within the limit still goes through (the limit is exact)', async () => {
  // exactly LIMIT bytes of a valid body (hash-digest takes up to 1M characters): a 402 for its payment, not a 413
  const text = JSON.stringify({ text: 'a'.repeat(LIMIT - 11) })
  expect(text.length).toBe(LIMIT)
  for (const framing of [`content-length: ${LIMIT}\r\n`, 'transfer-encoding: chunked\r\n']) {
    const body = framing.startsWith('content') ? text : `${text.length.toString(16)}\r\n${text}\r\n0\r\n\r\n`
    const a = await send(head('/api/v1/hash-digest', framing).replace('payment-signature: e30=\r\n', '') + body)
    expect([framing, a.status]).toEqual([framing, 402])
  }
})

test('/mcp: a JSON-RPC 413 that names its limit, for every framing', async () => {
  const mcpHead = (framing: string) =>
    `POST /mcp HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n${framing}\r\n`
  for (const request of [
    mcpHead(`content-length: ${MCP_LIMIT + 1}\r\n`),
    mcpHead('transfer-encoding: chunked\r\n') + chunked(1, MCP_LIMIT + 10_000),
    mcpHead('transfer-encoding: chunked\r\n') + chunked(40, 16_384),
  ]) {
    const a = await send(request)
    expect(a.status).toBe(413)
    const j = JSON.parse(a.body)
    expect(j.jsonrpc).toBe('2.0')
    expect(j.error.message).toBe(`The body is larger than the limit of ${MCP_LIMIT} bytes.`)
  }
})

test('streaming 100 MB at the server: JSON 413, and memory stays bounded', async () => {
  const block = 'x'.repeat(1 << 20)
  const peakBefore = rss(c.pid).peakMb
  const mb = () => `${block.length.toString(16)}\r\n${block}\r\n`
  let sent = 0
  const paid = await send(head('/api/v1/slugify', 'transfer-encoding: chunked\r\n'), () => (sent++ < 100 ? mb() : null))
  expectJson413(paid)
  // routes that read no body answer without it; the client keeps sending all 100 MB anyway
  for (const [path, status] of [
    ['/nope', 404],
    ['/admin/logout', 403], // a POST route of the console without a body reader (cross-site: refused)
  ] as const) {
    sent = 0
    const a = await send(head(path, 'transfer-encoding: chunked\r\n'), () => (sent++ < 100 ? mb() : null), true)
    expect([path, a.status, sent]).toEqual([path, status, 101])
  }
  // a body announced by Content-Length and really sent: refused from the header, the rest discarded by Bun
  sent = 0
  const a = await send(head('/api/v1/slugify', `content-length: ${100 * block.length}\r\n`), () =>
    sent++ < 100 ? block : null,
  )
  expectJson413(a)
  // Bun buffers none of it (a body nobody reads is discarded; ours stop at the limit): the peak grows by far
  // less than the 100 MB sent per request (generous margin for the allocator on a loaded machine)
  expect(rss(c.pid).peakMb - peakBefore).toBeLessThan(60)
})

test('none of these is logged as an internal error or counted as a service error', async () => {
  const stats = (await (await fetch(`http://127.0.0.1:${c.port}/stats/today`)).json()) as any
  expect(stats.totals.errors).toBe(0)
  expect(c.lines.join('\n').includes('"level":"error"')).toBe(false)
})
