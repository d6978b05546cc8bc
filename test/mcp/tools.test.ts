/**
 * /mcp with the official MCP SDK client: the tool catalog, the free tools, unpaid calls and protocol edges.
 * No payment reaches a facilitator here (refusingFacilitator fails the test if one does).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { decodeB64Json, post, refusingFacilitator, startServer, type TestServer } from '../support/server'
import { withEcho } from '../support/extra-service'
import { mcpClient, textJson } from './client'
import { signPayment } from '../support/pay'
import { generatePrivateKey } from 'viem/accounts'

let s: TestServer
let c: Client
const facilitator = refusingFacilitator()

beforeAll(async () => {
  s = await startServer({
    entries: withEcho(),
    facilitator,
    env: { DEMO_SERVICE: 'test-echo', DEMO_DAILY_LIMIT: '2', INVALID_PAYMENT_LIMIT: '2' },
  })
  c = await mcpClient(s.url)
})
afterAll(async () => {
  await c?.close()
  await s?.stop()
})

/** The raw tools/list answer of /mcp with a query, as a client receives it (its size is what the agent pays for). */
async function rawList(query: string) {
  const r = await fetch(s.url + '/mcp' + query, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  })
  const text = await r.text()
  return { bytes: Buffer.byteLength(text), tools: JSON.parse(text).result.tools as Array<{ name: string }> }
}

describe('tools/list', () => {
  test('by default: a small set (free tools, call_service, the featured services) well under 100 KB', async () => {
    const { bytes, tools } = await rawList('')
    const names = tools.map((t) => t.name)
    expect(bytes).toBeLessThan(64 * 1024)
    expect(tools.length).toBeLessThanOrEqual(24)
    expect(names.slice(0, 4)).toEqual(['search_services', 'describe_service', 'demo_test_echo', 'call_service'])
    expect(names).toEqual(expect.arrayContaining(['read-url', 'json-format', 'hash-digest', 'explain-code']))
    expect(names).not.toContain('slugify')
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(names)
    const all = await rawList('?tools=all')
    expect(all.bytes).toBeGreaterThan(300 * 1024)
    expect(bytes / all.bytes).toBeLessThan(0.2)
  })

  test('?tools=all: one tool per service plus the free tools and call_service, with prices, schemas and tiers', async () => {
    const full = await mcpClient(s.url, '?tools=all')
    const { tools } = await full.listTools()
    await full.close()
    const names = tools.map((t) => t.name)
    const services = ((await (await fetch(s.url + '/services')).json()) as any).services as any[]
    for (const svc of services) expect(names).toContain(svc.slug)
    expect(names).toEqual(
      expect.arrayContaining(['search_services', 'describe_service', 'demo_test_echo', 'call_service']),
    )
    expect(tools.length).toBe(services.length + 4)
    expect(new Set(names).size).toBe(names.length)

    const slugify = tools.find((t) => t.name === 'slugify')!
    expect(slugify.description).toContain('$0.001 USDC per call')
    expect((slugify.inputSchema.properties as any).text.type).toBe('string')
    expect(slugify.inputSchema.required).toEqual(['text'])
    // outputSchema: the manifest's output, or the PaymentRequired / error shapes an isError answer carries
    expect((slugify.outputSchema as any).anyOf[0].properties.slug.type).toBe('string')

    const tiered = tools.find((t) => t.name === 'test-explain')!
    expect(tiered.description).toContain('quick $0.01, standard $0.05 (default), pro $0.1 USDC per call')
    expect((tiered.inputSchema.properties as any).tier.anyOf.map((x: any) => x.const)).toEqual([
      'quick',
      'standard',
      'pro',
    ])
    expect(Object.keys(tools.find((t) => t.name === 'demo_test_echo')!.inputSchema.properties!)).toEqual([
      'code',
      'language',
      'context',
    ])
  })
})

describe('call_service', () => {
  test('reaches every service, unlisted ones too, with the same PaymentRequired as its own tool', async () => {
    const services = ((await (await fetch(s.url + '/services')).json()) as any).services as any[]
    for (const slug of ['slugify', 'test-echo', 'json-format']) {
      const viaGeneric = await c.callTool({ name: 'call_service', arguments: { slug, arguments: {} } })
      const own = await c.callTool({ name: slug, arguments: {} })
      expect(viaGeneric.isError).toBe(true)
      const accepts = (viaGeneric.structuredContent as any).accepts
      expect(accepts).toEqual((own.structuredContent as any).accepts)
      const price = services.find((x) => x.slug === slug).pricing.flat.price_usd
      expect(BigInt(accepts[0].amount)).toBe(BigInt(Math.round(price * 1e6)))
      expect(accepts[0].scheme).toBe('exact')
    }
    const tiered = await c.callTool({
      name: 'call_service',
      arguments: { slug: 'test-explain', arguments: { code: 'x', tier: 'pro' } },
    })
    expect((tiered.structuredContent as any).accepts[0].amount).toBe('100000')
    const listed = (await c.listTools()).tools.find((t) => t.name === 'call_service')!
    expect((listed.inputSchema.properties as any).slug.enum).toHaveLength(services.length)
  })

  test('an unknown slug is a 404 with suggestions, bad arguments a free 422; nothing reaches a facilitator', async () => {
    const unknown = await c.callTool({ name: 'call_service', arguments: { slug: 'slugifyy', arguments: {} } })
    expect(unknown.isError).toBe(true)
    expect((unknown.structuredContent as any).error.code).toBe('NOT_FOUND')
    expect((unknown.structuredContent as any).error.message).toContain('slugify')
    const bad = await c.callTool({ name: 'call_service', arguments: { slug: 'slugify', arguments: { text: 7 } } })
    expect((bad.structuredContent as any).error.code).toBe('INVALID_INPUT')
    const noSlug = await c.callTool({ name: 'call_service', arguments: { arguments: {} } })
    expect((noSlug.structuredContent as any).error.code).toBe('INVALID_INPUT')
    expect(facilitator.calls).toBe(0)
  })
})

describe('free tools', () => {
  test('search_services ranks by words and returns slugs, prices and one-line descriptions', async () => {
    const r = await c.callTool({ name: 'search_services', arguments: { query: 'slug from text', limit: 3 } })
    expect(r.isError).toBeFalsy()
    const body = r.structuredContent as any
    expect(body).toEqual(textJson(r))
    expect(body.results.length).toBeLessThanOrEqual(3)
    expect(body.results[0]).toMatchObject({
      slug: 'slugify',
      tool: 'slugify',
      price: '$0.001 USDC per call',
      pricing: { flat: { price_usd: 0.001 } },
    })
    expect(body.results[0].description.length).toBeLessThanOrEqual(160)
    const json = (await c.callTool({ name: 'search_services', arguments: { query: 'convert yaml to json' } }))
      .structuredContent as any
    expect(json.results[0].slug).toBe('json-yaml-convert')
    const weather = (await c.callTool({ name: 'search_services', arguments: { query: 'weather forecast' } }))
      .structuredContent as any
    expect(weather.results[0].slug).toBe('weather-forecast')
    const none = (await c.callTool({ name: 'search_services', arguments: { query: 'zzqqxx' } }))
      .structuredContent as any
    expect(none).toMatchObject({ total_matches: 0, results: [] })
  })

  test('describe_service gives the schema, prices and an example; an unknown slug is a 404-coded error', async () => {
    const r = await c.callTool({ name: 'describe_service', arguments: { slug: 'slugify' } })
    const d = r.structuredContent as any
    expect(d).toMatchObject({
      slug: 'slugify',
      kind: 'utility',
      price: '$0.001 USDC per call',
      example: { arguments: { text: ' Joel is a slug ' }, result: { slug: 'joel-is-a-slug', length: 14 } },
    })
    expect(d.input_schema.required).toEqual(['text'])
    expect(d.http.url).toMatch(/\/api\/v1\/slugify$/)
    const missing = await c.callTool({ name: 'describe_service', arguments: { slug: 'slugifyy' } })
    expect(missing.isError).toBe(true)
    expect((missing.structuredContent as any).error.code).toBe('NOT_FOUND')
    expect((missing.structuredContent as any).error.message).toContain('slugify')
  })

  test('free tools refuse invalid arguments with INVALID_INPUT', async () => {
    for (const args of [{}, { query: '' }, { query: 'x', limit: 99 }, { query: 'x', extra: 1 }]) {
      const r = await c.callTool({ name: 'search_services', arguments: args })
      expect(r.isError).toBe(true)
      expect((r.structuredContent as any).error.code).toBe('INVALID_INPUT')
    }
  })

  test('the demo tool runs free within the daily quota shared with /api/demo/explain, then refuses', async () => {
    const ok = await c.callTool({ name: 'demo_test_echo', arguments: { code: 'hi' } })
    expect(ok.isError).toBeFalsy()
    expect(ok.structuredContent).toMatchObject({ echo: 'HI', demo: { limit: 2, remaining: 1 } })
    const bad = await c.callTool({ name: 'demo_test_echo', arguments: { language: 'js' } })
    expect((bad.structuredContent as any).error.code).toBe('INVALID_INPUT')
    expect((await post(s.url + '/api/demo/explain', { code: 'http' })).status).toBe(200)
    const over = await c.callTool({ name: 'demo_test_echo', arguments: { code: 'again' } })
    expect(over.isError).toBe(true)
    expect((over.structuredContent as any).error.code).toBe('DEMO_QUOTA_EXCEEDED')
    expect(over._meta?.['retry-after']).toBeGreaterThan(0)
    // the quota follows the socket address: a forged X-Forwarded-For (no trusted proxy) buys nothing
    const forged = new Client({ name: 'forger', version: '1.0.0' })
    await forged.connect(
      new StreamableHTTPClientTransport(new URL(s.url + '/mcp'), {
        requestInit: { headers: { 'x-forwarded-for': '203.0.113.7' } },
      }),
    )
    const r = await forged.callTool({ name: 'demo_test_echo', arguments: { code: 'forged' } })
    await forged.close()
    expect((r.structuredContent as any).error.code).toBe('DEMO_QUOTA_EXCEEDED')
  })
})

describe('paid tools without payment', () => {
  test('an unpaid call is isError with the v2 PaymentRequired in structuredContent and as content[0].text', async () => {
    const r = await c.callTool({ name: 'slugify', arguments: { text: 'Hello' } })
    expect(r.isError).toBe(true)
    const pr = r.structuredContent as any
    expect(textJson(r)).toEqual(pr)
    expect(pr.x402Version).toBe(2)
    expect(typeof pr.error).toBe('string')
    expect(pr.accepts).toEqual([
      expect.objectContaining({
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '1000',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      }),
    ])
    // the same requirements as the HTTP route's PAYMENT-REQUIRED header
    const http = decodeB64Json(
      (await post(s.url + '/api/v1/slugify', { text: 'Hello' })).headers.get('payment-required'),
    )
    expect(pr.accepts).toEqual(http.accepts)
    expect(pr.resource).toEqual(http.resource)
    // the three places the x402 MCP spec tells clients to look: structuredContent, structuredContent["x402/error"].data,
    // and content[0].text as the x402/error wrapper (what @x402/mcp's client reads)
    const wrapped = textJson(r)['x402/error']
    expect(wrapped).toEqual(pr['x402/error'])
    expect(wrapped).toMatchObject({ code: 402, message: pr.error })
    expect(wrapped.data).toEqual({ x402Version: 2, error: pr.error, resource: http.resource, accepts: http.accepts })
    expect(r._meta?.['x402/error']).toEqual(wrapped.data)
    expect(facilitator.calls).toBe(0)
  })

  test('a tiered tool prices the tier named in its arguments', async () => {
    const quick = (await c.callTool({ name: 'test-explain', arguments: { code: 'x', tier: 'quick' } }))
      .structuredContent as any
    const pro = (await c.callTool({ name: 'test-explain', arguments: { code: 'x', tier: 'pro' } }))
      .structuredContent as any
    const dflt = (await c.callTool({ name: 'test-explain', arguments: { code: 'x' } })).structuredContent as any
    expect([quick.accepts[0].amount, dflt.accepts[0].amount, pro.accepts[0].amount]).toEqual([
      '10000',
      '50000',
      '100000',
    ])
    const bad = await c.callTool({ name: 'test-explain', arguments: { code: 'x', tier: 'ultra' } })
    expect(bad.isError).toBe(true)
    expect((bad.structuredContent as any).error.code).toBe('INVALID_TIER')
  })

  test('an unavailable service (no model configured) answers its HTTP error code, not a payment request', async () => {
    const { tools } = await c.listTools()
    expect(tools.find((t) => t.name === 'explain-code')!.description).toContain('Currently unavailable')
    const r = await c.callTool({ name: 'explain-code', arguments: { code: 'x' } })
    expect(r.isError).toBe(true)
    const http = await post(s.url + '/api/v1/explain-code', { code: 'x' })
    expect(http.status).toBe(503)
    const body = (await http.json()) as any
    expect((r.structuredContent as any).error).toMatchObject({
      code: 'MODEL_NOT_CONFIGURED',
      message: body.error.message,
    })
  })
})

describe('refused payments', () => {
  test('cheap refusals (a malformed payment) cost no verification and are not throttled', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await c.callTool({
        name: 'test-echo',
        arguments: { code: 'x' },
        _meta: { 'x402/payment': { x402Version: 2, junk: i } },
      })
      expect((r.structuredContent as any).x402Version).toBe(2)
    }
    expect(facilitator.calls).toBe(0)
  })

  test('costly refusals count toward the per-client throttle shared with HTTP, then 429 before any work', async () => {
    // A facilitator that verifies and refuses: each refusal cost verification work, so each one counts.
    const refusing = {
      kind: 'remote' as const,
      calls: 0,
      async verify() {
        refusing.calls++
        return { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature' }
      },
      async settle() {
        throw new Error('never settles')
      },
      async status() {
        return { state: 'unknown' as const }
      },
    }
    const s2 = await startServer({ entries: withEcho(), facilitator: refusing, env: { INVALID_PAYMENT_LIMIT: '2' } })
    const c2 = await mcpClient(s2.url)
    try {
      const requirements = decodeB64Json(
        (await post(s2.url + '/api/v1/test-echo', { code: 'x' })).headers.get('payment-required'),
      ).accepts[0]
      const payload = async () =>
        JSON.parse(
          Buffer.from(await signPayment({ key: generatePrivateKey(), requirements }), 'base64').toString('utf8'),
        )
      const results = []
      for (let i = 0; i < 3; i++)
        results.push(
          await c2.callTool({
            name: 'test-echo',
            arguments: { code: 'x' },
            _meta: { 'x402/payment': await payload() },
          }),
        )
      expect(results.slice(0, 2).map((r) => (r.structuredContent as any).error)).toEqual([
        'invalid_exact_evm_payload_signature',
        'invalid_exact_evm_payload_signature',
      ])
      const limited = results[2]
      expect(limited.isError).toBe(true)
      expect((limited.structuredContent as any).error.code).toBe('TOO_MANY_INVALID_PAYMENTS')
      expect(limited._meta?.['retry-after']).toBeGreaterThan(0)
      expect(refusing.calls).toBe(2)
      // the same client over HTTP is throttled too (one socket address, one budget)
      const http = await post(
        s2.url + '/api/v1/test-echo',
        { code: 'x' },
        { 'payment-signature': Buffer.from(JSON.stringify(await payload())).toString('base64') },
      )
      expect(http.status).toBe(429)
      expect(refusing.calls).toBe(2)
    } finally {
      await c2.close()
      await s2.stop()
    }
  })
})

describe('protocol edges', () => {
  test('an unknown tool is a JSON-RPC error, not a result', async () => {
    await expect(c.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow(/Unknown tool/)
  })

  test('GET and DELETE answer 405 (stateless server); malformed JSON is a JSON-RPC parse error; nothing is a 500', async () => {
    const get = await fetch(s.url + '/mcp', { headers: { accept: 'text/event-stream' } })
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST, OPTIONS')
    expect(((await get.json()) as any).jsonrpc).toBe('2.0')
    expect((await fetch(s.url + '/mcp', { method: 'DELETE' })).status).toBe(405)
    const bad = await fetch(s.url + '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as any).error.code).toBe(-32700)
    const huge = await fetch(s.url + '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ pad: 'x'.repeat(2_000_000) }),
    })
    expect(huge.status).toBe(413)
    const noAccept = await fetch(s.url + '/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(noAccept.status).toBe(406)
    const pre = await fetch(s.url + '/mcp', { method: 'OPTIONS' })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-headers')).toContain('Mcp-Protocol-Version')
  })

  test('a JSON-RPC batch is refused whole (HTTP 400, Invalid Request, id null): 100 × tools/list buys no 40 MB answer', async () => {
    const one = { jsonrpc: '2.0', method: 'tools/list' }
    for (const version of ['2025-06-18', '2025-03-26', '2025-11-25', undefined]) {
      for (const batch of [
        Array.from({ length: 100 }, (_, i) => ({ ...one, id: i })),
        [{ ...one, id: 1 }],
        [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }],
        [],
      ]) {
        const r = await fetch(s.url + '/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(version ? { 'mcp-protocol-version': version } : {}),
          },
          body: JSON.stringify(batch),
        })
        expect([version, batch.length, r.status]).toEqual([version, batch.length, 400])
        const text = await r.text()
        expect(text.length).toBeLessThan(1000)
        const j = JSON.parse(text)
        expect(j).toEqual({
          jsonrpc: '2.0',
          error: { code: -32600, message: expect.stringContaining('batch') },
          id: null,
        })
      }
    }
    // one message per request still works
    expect((await c.listTools()).tools.length).toBeGreaterThan(3)
  })

  test('malformed tool calls get a JSON-RPC error or an isError result, never a 500 or a hang', async () => {
    const deep = JSON.parse('{"a":'.repeat(3000) + '1' + '}'.repeat(3000))
    const cases: unknown[] = [
      { name: 42, arguments: {} },
      { name: 'slugify', arguments: [1, 2] },
      { name: 'slugify', arguments: 'text' },
      { name: 'slugify', arguments: { text: 'x' }, _meta: 'not an object' },
      { name: 'slugify', arguments: { text: 'x' }, _meta: { 'x402/payment': 'x'.repeat(100_000) } },
      { name: 'test-echo', arguments: { code: 'x', deep }, _meta: { 'x402/payment': { x402Version: 2 } } },
      { name: 'search_services', arguments: { query: 'x'.repeat(500_000) } },
      { name: 'describe_service', arguments: null },
      { name: 'demo_test_echo', arguments: { code: 7 } },
      {},
    ]
    for (const params of cases) {
      const r = await fetch(s.url + '/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
      })
      expect(r.status).toBeLessThan(500)
      const body = (await r.json()) as any
      expect(body.jsonrpc).toBe('2.0')
      if (body.result) expect(body.result.isError).toBe(true)
      else expect(typeof body.error.code).toBe('number')
      expect(JSON.stringify(body)).not.toContain('    at ')
    }
    expect(facilitator.calls).toBe(0)
  })

  test('a raw tools/call over plain JSON-RPC works without a prior initialize (stateless)', async () => {
    const r = await fetch(s.url + '/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'slugify', arguments: { text: 'a b' } },
      }),
    })
    expect(r.status).toBe(200)
    const body = (await r.json()) as any
    expect(body.id).toBe(7)
    expect(body.result.isError).toBe(true)
    expect(body.result.structuredContent.accepts[0].amount).toBe('1000')
  })
})

describe('published', () => {
  test('/.well-known/x402, OpenAPI and the site point agents at /mcp', async () => {
    const wk = (await (await fetch(s.url + '/.well-known/x402')).json()) as any
    expect(wk.mcp).toMatchObject({ endpoint: '/mcp', transport: 'streamable-http' })
    expect(wk.mcp.url).toMatch(/\/mcp$/)
    const openapi = (await (await fetch(s.url + '/openapi.json')).json()) as any
    expect(openapi.paths['/mcp'].post.security).toEqual([])
    expect(openapi.paths['/mcp'].post.description).toContain('x402/payment')
    expect(await (await fetch(s.url + '/')).text()).toContain('<code>/mcp</code>')
  })
})
