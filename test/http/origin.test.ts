/**
 * Which web pages may make the server act (runtime/http/same-origin.ts): a foreign `Origin` gets 403 CROSS_ORIGIN in
 * the one error shape on /mcp and the free demo, DNS rebinding included (the attacker's name in both Host and
 * Origin); the server's public origins, MCP_ALLOWED_ORIGINS and its own loopback page pass, and a request without
 * Origin (an agent, curl) is not concerned. The conformance suite's scenario is in test/mcp/conformance.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../runtime/config'
import { startApp, type TestServer } from '../support/server'
import { withEcho } from '../support/extra-service'

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'origin-test', version: '1.0.0' } },
}
const MCP = { accept: 'application/json, text/event-stream' }

let s: TestServer
beforeAll(async () => {
  s = await startApp({
    entries: withEcho(),
    env: {
      DEMO_SERVICE: 'test-echo',
      PUBLIC_URL: 'https://api.example.com',
      MCP_ALLOWED_ORIGINS: 'https://agent-ui.example, http://localhost:6274',
    },
  })
})
afterAll(() => s.stop())

const expectRefused = async (r: Response) => {
  expect(r.status).toBe(403)
  const body = (await r.json()) as any
  expect(body.error.code).toBe('CROSS_ORIGIN')
  expect(body.request_id).toMatch(/^req_/)
}

describe('/mcp', () => {
  test('a foreign Origin is refused before anything runs (403 CROSS_ORIGIN), DNS rebinding and `null` included', async () => {
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example' },
      { origin: 'http://evil.example.com:3402', host: 'evil.example.com:3402' },
      { origin: 'null' },
      { origin: 'http://localhost:9999', host: 'localhost:3402' },
      { origin: 'chrome-extension://abc' },
    ])
      await expectRefused(await s.post('/mcp', INITIALIZE, { ...MCP, ...headers }))
    await expectRefused(await s.fetch('/mcp', { headers: { origin: 'https://evil.example' } }))
    await expectRefused(await s.fetch('/mcp', { method: 'DELETE', headers: { origin: 'https://evil.example' } }))
  })

  test('no Origin, the public origin, MCP_ALLOWED_ORIGINS and the server itself on loopback are served', async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { origin: 'https://api.example.com' },
      { origin: 'https://agent-ui.example' },
      { origin: 'http://localhost:6274' },
      { origin: 'http://localhost:3402', host: 'localhost:3402' },
      { origin: 'http://127.0.0.1:41000', host: '127.0.0.1:41000' },
    ]) {
      const r = await s.post('/mcp', INITIALIZE, { ...MCP, ...headers })
      expect(r.status).toBe(200)
      expect(((await r.json()) as any).result.serverInfo.name).toBeString()
    }
  })
})

describe('the free demo', () => {
  test('a foreign page is refused and uses no quota; an agent and the own page are served', async () => {
    await expectRefused(await s.post('/api/demo/explain', { code: 'hi' }, { origin: 'https://evil.example' }))
    const own = await s.post('/api/demo/explain', { code: 'hi' }, { origin: 'https://api.example.com' })
    expect(own.status).toBe(200)
    expect(own.headers.get('x-demo-remaining')).toBe('4')
    const agent = await s.post('/api/demo/explain', { code: 'hi' })
    expect(agent.status).toBe(200)
    expect(agent.headers.get('x-demo-remaining')).toBe('3')
  })
})

test('MCP_ALLOWED_ORIGINS holds http(s) origins: anything else is a problem at boot', () => {
  const ok = loadConfig({ PUBLIC_URL: 'https://api.example.com/', MCP_ALLOWED_ORIGINS: 'https://a.example/path' })
  expect(ok.config.allowedOrigins).toEqual(['https://api.example.com', 'https://a.example'])
  const bad = loadConfig({ MCP_ALLOWED_ORIGINS: 'ftp://files.example, not a url' })
  expect(bad.problems.filter((p) => p.includes('MCP_ALLOWED_ORIGINS'))).toHaveLength(2)
})
