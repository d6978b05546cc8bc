import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { post, startServer, type TestServer } from '../support/server'
import { withEcho } from '../support/extra-service'

describe('free demo quota', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startServer({ entries: withEcho(), env: { DEMO_SERVICE: 'test-echo' } })
  })
  afterAll(() => s.stop())

  test('20 concurrent calls from one client give exactly 5 successes, then 429 with Retry-After', async () => {
    const rs = await Promise.all(Array.from({ length: 20 }, () => post(s.url + '/api/demo/explain', { code: 'hello' })))
    const codes = rs.map((r) => r.status)
    expect(codes.filter((c) => c === 200).length).toBe(5)
    expect(codes.filter((c) => c === 429).length).toBe(15)
    const ok = (await rs.find((r) => r.status === 200)!.json()) as any
    expect(ok.echo).toBe('HELLO')
    expect(ok.demo.limit).toBe(5)
    const limited = rs.find((r) => r.status === 429)!
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    const body = (await limited.json()) as any
    expect(body.error.code).toBe('DEMO_QUOTA_EXCEEDED')
    expect(Date.parse(body.error.resets_at)).toBeGreaterThan(Date.now())
    expect(new Date(body.error.resets_at).toISOString()).toMatch(/T00:00:00\.000Z$/)
  })

  test('a forged X-Forwarded-For does not buy more calls without a trusted proxy', async () => {
    const r = await post(s.url + '/api/demo/explain', { code: 'x' }, { 'x-forwarded-for': '203.0.113.9' })
    expect(r.status).toBe(429)
  })

  test('invalid bodies are 422 and never ask for payment', async () => {
    const r = await post(s.url + '/api/demo/explain', { language: 'js' })
    expect(r.status).toBe(422)
    expect(r.headers.get('payment-required')).toBeNull()
  })

  test('stats count demo calls', async () => {
    const today = (await (await fetch(s.url + '/stats/today')).json()) as any
    expect(today.totals.demo_calls).toBe(5)
    expect(today.totals.revenue_usd).toBe(0)
  })
})

describe('trusted proxy', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startServer({
      entries: withEcho(),
      env: { DEMO_SERVICE: 'test-echo', TRUSTED_PROXIES: '1', DEMO_DAILY_LIMIT: '1' },
    })
  })
  afterAll(() => s.stop())
  test('with one trusted proxy, the right-most X-Forwarded-For entry is the client', async () => {
    expect((await post(s.url + '/api/demo/explain', { code: 'a' }, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(
      200,
    )
    expect((await post(s.url + '/api/demo/explain', { code: 'a' }, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(
      429,
    )
    // a forged left-most hop does not change who the proxy saw
    expect(
      (await post(s.url + '/api/demo/explain', { code: 'a' }, { 'x-forwarded-for': '10.9.9.9, 198.51.100.1' })).status,
    ).toBe(429)
    expect((await post(s.url + '/api/demo/explain', { code: 'a' }, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(
      200,
    )
  })
})
