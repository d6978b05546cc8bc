/**
 * Bad input is a 4xx in the error shape, logged as a client error and not counted as a service error (issue #13
 * item 7): malformed Host headers, JSON nested 100,000 levels, chunked bodies over the limit. A real server process
 * (with the production maxRequestBodySize) and raw sockets, so the requests are exactly as sent.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Child } from '../../bench/lib'
import { startServerProcess, UNREACHABLE_CHAIN } from '../support/server-process'
import { nestsDeeperThan } from '../../runtime/http/body'
import { rawHttp } from '../support/raw-http'

const LIMIT = 300_000
let c: Child
beforeAll(async () => {
  c = await startServerProcess({
    LOG_LEVEL: 'info',
    BODY_LIMIT_BYTES: String(LIMIT),
    ...UNREACHABLE_CHAIN, // every request below must be refused before any payment work
  })
})
afterAll(() => c?.stop())

/** Sends bytes as they are and returns the status and body of the answer. */
const raw = (request: string) => rawHttp(c.port, request)
const shape = (body: string): { error: { code: string; message: string } } => {
  const j = JSON.parse(body)
  expect(Object.keys(j).sort()).toEqual(['error', 'request_id'])
  expect(typeof j.error.code).toBe('string')
  expect(typeof j.error.message).toBe('string')
  expect(j.request_id).toMatch(/^req_/)
  return j
}
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${c.port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })

test('a malformed Host header on a paid route is a 400 in the error shape, paid or not', async () => {
  for (const host of ['a b', 'x/y', 'h:99999', 'h@evil', '[::1']) {
    for (const pay of ['payment-signature: e30=\r\n', '']) {
      const body = '{"text":"a"}'
      const r = await raw(
        `POST /api/v1/slugify HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\n${pay}content-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      )
      expect([host, r.status]).toEqual([host, 400])
      expect(shape(r.body).error.code).toBe('INVALID_HOST')
    }
  }
  const r = await raw(`GET /nope HTTP/1.1\r\nHost: h:99999\r\nconnection: close\r\n\r\n`)
  expect(r.status).toBe(400)
})

test('JSON nested 100,000 levels deep is a 422 on paid routes and the demo', async () => {
  const deep = '['.repeat(100_000) + ']'.repeat(100_000)
  for (const [path, body] of [
    ['/api/v1/slugify', `{"text":${deep}}`],
    ['/api/v1/json-format', `{"json":${deep}}`],
    ['/api/demo/explain', `{"code":${deep}}`],
  ] as const) {
    const r = await post(path, body, { 'payment-signature': 'e30=' })
    expect([path, r.status]).toEqual([path, 422])
    expect(shape(await r.text()).error.message).toContain('levels deep')
  }
  // the limit is on structure, not on brackets inside strings
  const ok = await post('/api/v1/slugify', JSON.stringify({ text: '['.repeat(1000) }))
  expect(ok.status).toBe(402)
})

test('a chunked body over the limit is a 413 in the error shape, however it is chunked', async () => {
  const chunked = (n: number, size: number) =>
    Array.from({ length: n }, () => `${size.toString(16)}\r\n${'x'.repeat(size)}\r\n`).join('') + '0\r\n\r\n'
  for (const path of ['/api/v1/slugify', '/api/demo/explain']) {
    const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\npayment-signature: e30=\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n`
    // many chunks in one burst, and one chunk past what used to be Bun's own cap (limit + 1 KiB, which answered a
    // bodiless 413 itself): our reader stops at the limit either way (test/money/body-limit.test.ts has the rest)
    for (const body of [chunked(8, 50_000), chunked(1, LIMIT + 10_000)]) {
      const over = await raw(head + body)
      expect(over.status).toBe(413)
      expect(shape(over.body).error.code).toBe('PAYLOAD_TOO_LARGE')
    }
  }
})

test('none of these is logged as an internal error or counted as a service error', async () => {
  const stats = (await (await fetch(`http://127.0.0.1:${c.port}/stats/today`)).json()) as any
  expect(stats.totals.errors).toBe(0)
  await Bun.sleep(0)
  const errors = c.lines
    .join('\n')
    .split('\n')
    .filter((l) => l.includes('"level":"error"'))
  expect(errors).toEqual([])
})

test('depth scan: known answers', () => {
  expect(nestsDeeperThan('[[1]]', 2)).toBe(false)
  expect(nestsDeeperThan('[[[1]]]', 2)).toBe(true)
  expect(nestsDeeperThan('{"a":{"b":[]}}', 3)).toBe(false)
  expect(nestsDeeperThan('{"a":{"b":[{}]}}', 3)).toBe(true)
  expect(nestsDeeperThan('["[[[[", "\\"[[[["]', 1)).toBe(false)
  expect(nestsDeeperThan('[[],[],[]]', 2)).toBe(false)
})
