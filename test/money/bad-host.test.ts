/**
 * #24 item 5: a malformed Host header never reaches Bun's development error page (working directory, paths, stack,
 * source lines) and never prints a stack outside the redacting logger. The server as its own process (the production
 * listen options of runtime/index.ts), with and without the console, raw sockets so the Host goes as written.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Child } from '../../bench/lib'
import { createLogger } from '../../runtime/log'
import { serveOptions } from '../../runtime/http/serve-options'
import { rawHttp } from '../support/raw-http'
import { startServerProcess, UNREACHABLE_CHAIN } from '../support/server-process'

const HOSTS = ['a b', 'x/y', 'h:99999', 'h@evil', '[::1', '%']
const ROUTES: Array<[string, string, string]> = [
  ['GET', '/', ''],
  ['GET', '/health', ''],
  ['GET', '/admin', ''],
  ['POST', '/api/v1/slugify', '{"text":"a b"}'],
  ['POST', '/mcp', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'],
]
const STACK = /\bat .*\.(ts|js|mjs):\d+|node_modules|\/work\/|<!doctype|Error:/i

const servers: Record<string, Child> = {}
beforeAll(async () => {
  const [withConsole, without] = await Promise.all([
    startServerProcess({ ...UNREACHABLE_CHAIN, LOG_LEVEL: 'info', ADMIN_TOKEN: 'an-admin-token-of-32-characters-x' }),
    startServerProcess({ ...UNREACHABLE_CHAIN, LOG_LEVEL: 'info' }),
  ])
  servers['with ADMIN_TOKEN'] = withConsole
  servers['without ADMIN_TOKEN'] = without
})
afterAll(() => Promise.all(Object.values(servers).map((c) => c.stop())))

for (const mode of ['with ADMIN_TOKEN', 'without ADMIN_TOKEN'])
  test(`every malformed Host on every route is a 400 in the error shape, ${mode}; nothing on stderr`, async () => {
    const c = servers[mode]
    const logLines = c.lines.length
    for (const host of HOSTS)
      for (const [method, path, body] of ROUTES) {
        const r = await rawHttp(
          c.port,
          `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
        )
        const where = `${host} ${method} ${path}`
        expect([where, r.status]).toEqual([where, 400])
        expect(r.head.toLowerCase()).toContain('content-type: application/json')
        const j = JSON.parse(r.body)
        expect(Object.keys(j).sort()).toEqual(['error', 'request_id'])
        expect([where, j.error.code]).toEqual([where, 'INVALID_HOST'])
        expect(r.body).not.toMatch(STACK)
      }
    // no Host at all (HTTP/1.0): the same 400, saying what is missing
    const none = await rawHttp(c.port, `GET /health HTTP/1.0\r\n\r\n`)
    expect(none.status).toBe(400)
    expect(JSON.parse(none.body).error).toEqual({ code: 'INVALID_HOST', message: 'A Host header is required.' })
    // the same routes with a good Host still answer (the guard refuses only what has no URL)
    for (const host of ['127.0.0.1', 'example.com:8080', '[::1]:80']) {
      const ok = await rawHttp(c.port, `GET /health HTTP/1.1\r\nHost: ${host}\r\nconnection: close\r\n\r\n`)
      expect([host, ok.status]).toEqual([host, 200])
    }
    expect(c.stderr.join('')).toBe('')
    // nothing but the logger's JSON lines on stdout, and no stack in them
    for (const line of c.lines.slice(logLines).join('\n').split('\n').filter(Boolean)) {
      expect(() => JSON.parse(line)).not.toThrow()
      expect(line).not.toMatch(STACK)
    }
  })

test('an error that escapes the app is a 500 in the error shape, logged through the logger, never the development page', async () => {
  const logged: string[] = []
  const server = Bun.serve({
    ...serveOptions(
      0,
      '127.0.0.1',
      createLogger('info', (l) => logged.push(l)),
    ),
    fetch() {
      throw new Error('boom from http://rpc.example/v2/SECRET-KEY-123')
    },
  })
  try {
    const r = await fetch(`http://127.0.0.1:${server.port}/anything`)
    expect(r.status).toBe(500)
    const body = await r.text()
    const j = JSON.parse(body)
    expect(j.error.code).toBe('INTERNAL')
    expect(j.request_id).toMatch(/^req_/)
    expect(body).not.toMatch(STACK)
    expect(body).not.toContain('boom')
    expect(logged).toHaveLength(1)
    expect(logged[0]).toContain(j.request_id)
    expect(logged[0]).toContain('boom from http://rpc.example')
    expect(logged[0]).not.toContain('SECRET-KEY-123') // the logger's redaction applies
  } finally {
    await server.stop(true)
  }
})
