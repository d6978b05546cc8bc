/** The console's access rules over real HTTP: closed without ADMIN_TOKEN, bearer and session cookie, throttle, CSRF, no-store. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../runtime/config'
import { refusingFacilitator, startServer, type TestServer } from '../support/server'

const TOKEN = 'test-admin-token-0123456789abcdef'
let open: TestServer
let closed: TestServer

beforeAll(async () => {
  ;[open, closed] = await Promise.all([startServer({ env: { ADMIN_TOKEN: TOKEN } }), startServer()])
})
afterAll(async () => {
  await Promise.all([open?.stop(), closed?.stop()])
})

const bearer = (t = TOKEN) => ({ authorization: `Bearer ${t}` })
const form = (token: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  redirect: 'manual' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin: open.url, ...headers },
  body: new URLSearchParams({ token }).toString(),
})
const signIn = async () => {
  const r = await fetch(open.url + '/admin/login', form(TOKEN))
  expect(r.status).toBe(303)
  return r.headers.get('set-cookie')!.split(';')[0]
}

describe('admin access', () => {
  test('without ADMIN_TOKEN every /admin path is the same 404 as an unknown path', async () => {
    const unknown = await fetch(closed.url + '/no-such-path')
    const unknownBody = (await unknown.json()) as any
    for (const [path, init] of [
      ['/admin', {}],
      ['/admin/api/payments', { headers: bearer() }],
      ['/admin/api/overview', {}],
      ['/admin/login', { method: 'POST', body: 'token=x' }],
    ] as const) {
      const r = await fetch(closed.url + path, init as RequestInit)
      expect(r.status).toBe(404)
      const body = (await r.json()) as any
      expect(body.error.code).toBe(unknownBody.error.code)
      expect(body.error.message).toContain(path)
    }
  })

  test('ADMIN_TOKEN shorter than 24 characters is a boot problem', () => {
    expect(loadConfig({ ADMIN_TOKEN: 'short-token' }).problems.join('\n')).toContain(
      'ADMIN_TOKEN must be at least 24 characters',
    )
    expect(loadConfig({ ADMIN_TOKEN: TOKEN }).problems.join('\n')).not.toContain('ADMIN_TOKEN')
  })

  test('JSON needs the bearer token: none or a wrong one is 401 in the one error shape, the right one 200', async () => {
    const none = await fetch(open.url + '/admin/api/payments')
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toContain('Bearer')
    const nb = (await none.json()) as any
    expect(nb.error.code).toBe('UNAUTHORIZED')
    expect(nb.request_id).toMatch(/^req_/)
    const wrong = await fetch(open.url + '/admin/api/payments', { headers: bearer(TOKEN.slice(0, -1) + 'X') })
    expect(wrong.status).toBe(401)
    const ok = await fetch(open.url + '/admin/api/payments', { headers: bearer() })
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as any).payments).toEqual([])
    for (const r of [none, wrong, ok]) expect(r.headers.get('cache-control')).toBe('no-store')
  })

  test('the page before sign-in is a form and holds no data; sign-in sets a strict HttpOnly session cookie', async () => {
    const before = await fetch(open.url + '/admin')
    expect(before.status).toBe(200)
    expect(before.headers.get('cache-control')).toBe('no-store')
    const html = await before.text()
    expect(html).toContain('action="/admin/login"')
    expect(html).not.toContain('admin.js')
    const wrong = await fetch(open.url + '/admin/login', form('not-the-token-but-long-enough-0000'))
    expect(wrong.status).toBe(401)
    expect(wrong.headers.get('set-cookie')).toBeNull()
    const r = await fetch(open.url + '/admin/login', form(TOKEN))
    expect(r.status).toBe(303)
    expect(r.headers.get('location')).toBe('/admin')
    const cookie = r.headers.get('set-cookie')!
    // <generation>.<expiry ms>.<HMAC>: checkable by any instance, no session store (test/admin/sessions.test.ts)
    expect(cookie).toMatch(/^admin_session=\d+\.\d{13}\.[A-Za-z0-9_-]{43};/)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    expect(cookie).toContain('Path=/admin')
    expect(cookie).not.toContain('Secure') // plain http, no trusted proxy
    expect(cookie).not.toContain(TOKEN)
    const session = cookie.split(';')[0]
    const page = await fetch(open.url + '/admin', { headers: { cookie: session } })
    expect(await page.text()).toContain('/admin/admin.js')
    const api = await fetch(open.url + '/admin/api/overview', { headers: { cookie: session } })
    expect(api.status).toBe(200)
    expect(api.headers.get('cache-control')).toBe('no-store')
    // a made-up session is not a session
    for (const made of ['A'.repeat(43), `0.${Date.now() + 3_600_000}.${'A'.repeat(43)}`])
      expect(
        (await fetch(open.url + '/admin/api/overview', { headers: { cookie: `admin_session=${made}` } })).status,
      ).toBe(401)
  })

  test('Secure is added behind a trusted proxy that says https', async () => {
    const s = await startServer({ env: { ADMIN_TOKEN: TOKEN, TRUSTED_PROXIES: '1' } })
    try {
      const r = await fetch(s.url + '/admin/login', {
        ...form(TOKEN),
        headers: {
          ...form(TOKEN).headers,
          origin: s.url,
          'x-forwarded-proto': 'https',
          'x-forwarded-for': '203.0.113.9',
        },
      })
      expect(r.status).toBe(303)
      expect(r.headers.get('set-cookie')).toContain('; Secure')
    } finally {
      await s.stop()
    }
  })

  test('sign-out ends the session (and a sign-out without a session ends nothing)', async () => {
    const session = await signIn()
    const out = await fetch(open.url + '/admin/logout', {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: session, origin: open.url },
    })
    expect(out.status).toBe(303)
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0')
    expect((await fetch(open.url + '/admin/api/overview', { headers: { cookie: session } })).status).toBe(401)
    const next = await signIn()
    const stranger = await fetch(open.url + '/admin/logout', {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: open.url },
    })
    expect(stranger.status).toBe(303)
    expect((await fetch(open.url + '/admin/api/overview', { headers: { cookie: next } })).status).toBe(200)
  })

  test('POST actions refuse a cross-site request (CSRF) even with a valid session', async () => {
    const session = await signIn()
    const evil = await fetch(open.url + '/admin/api/reconcile', {
      method: 'POST',
      headers: { cookie: session, origin: 'https://evil.example' },
    })
    expect(evil.status).toBe(403)
    expect(((await evil.json()) as any).error.code).toBe('CROSS_ORIGIN')
    const crossSite = await fetch(open.url + '/admin/api/reconcile', {
      method: 'POST',
      headers: { cookie: session, origin: open.url, 'sec-fetch-site': 'cross-site' },
    })
    expect(crossSite.status).toBe(403)
    const noOrigin = await fetch(open.url + '/admin/api/reconcile', { method: 'POST', headers: { cookie: session } })
    expect(noOrigin.status).toBe(403)
    const login = await fetch(open.url + '/admin/login', form(TOKEN, { origin: 'https://evil.example' }))
    expect(login.status).toBe(403)
    expect(login.headers.get('set-cookie')).toBeNull()
    const same = await fetch(open.url + '/admin/api/reconcile', {
      method: 'POST',
      headers: { cookie: session, origin: open.url, 'sec-fetch-site': 'same-origin' },
    })
    expect(same.status).toBe(200)
    expect(((await same.json()) as any).reconciled).toEqual({ settled: 0, failed: 0, released: 0, unknown: 0 })
    // a bearer client (no browser, no Origin) may POST
    expect((await fetch(open.url + '/admin/api/reconcile', { method: 'POST', headers: bearer() })).status).toBe(200)
  })

  test('bad query parameters are 422 with details', async () => {
    for (const q of [
      'limit=0',
      'limit=501',
      'limit=abc',
      'state=paid',
      'slug=../x',
      'slug=A',
      'order=desc',
      'limit=1&limit=2',
    ]) {
      const r = await fetch(open.url + '/admin/api/payments?' + q, { headers: bearer() })
      expect(r.status).toBe(422)
      const b = (await r.json()) as any
      expect(b.error.code).toBe('INVALID_QUERY')
      expect(b.error.details.length).toBeGreaterThan(0)
    }
    expect(
      (await fetch(open.url + '/admin/api/payments?limit=500&state=settled&slug=slugify', { headers: bearer() }))
        .status,
    ).toBe(200)
    expect((await fetch(open.url + '/admin/api/payments/abc', { headers: bearer() })).status).toBe(422)
    expect((await fetch(open.url + '/admin/api/payments/999', { headers: bearer() })).status).toBe(404)
    const unknown = await fetch(open.url + '/admin/api/nothing', { headers: bearer() })
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('cache-control')).toBe('no-store')
  })

  test('error answers of /api are counted by code per service; the unpaid 402 challenge is not an error', async () => {
    const post = (path: string, headers: Record<string, string> = {}, body = '{"text":"x"}') =>
      fetch(open.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
    expect((await post('/api/v1/slugify')).status).toBe(402)
    expect((await post('/api/v1/slugify', { 'payment-signature': 'not-base64-json' })).status).toBe(402)
    // no model is configured here: the tiered service answers 503 with its own code
    const unavailable = await post('/api/explain-code', {}, '{"code":"x"}')
    expect(unavailable.status).toBe(503)
    const code = ((await unavailable.json()) as any).error.code
    expect((await post('/api/v1/explain-code', {}, '{"code":"x"}')).status).toBe(503)
    const want = [
      { slug: 'explain-code', code, status: 503, count: 2 },
      { slug: 'slugify', code: 'PAYMENT_REFUSED', status: 402, count: 1 },
    ]
    let got: unknown
    for (let i = 0; i < 200; i++) {
      got = ((await (await fetch(open.url + '/admin/api/overview', { headers: bearer() })).json()) as any).errors
        .by_code
      if (JSON.stringify(got) === JSON.stringify(want)) break
      await Bun.sleep(10) // polling for the asynchronous count, not a fixed wait
    }
    expect(got).toEqual(want)
  })

  test("the overview reports the payment backend's health, settler balances and the payee balance when it has them", async () => {
    const base = refusingFacilitator()
    const facilitator = {
      ...base,
      health: () => ({
        ok: true,
        canPay: false,
        detail: 'settler low on gas',
        settlers: [{ address: '0x' + '5'.repeat(40), balance_wei: '1200000000000', settlements_left: 3, in_flight: 1 }],
      }),
      balance: async () => 4_200_000n,
    }
    const s = await startServer({ env: { ADMIN_TOKEN: TOKEN }, facilitator })
    try {
      const o = (await (await fetch(s.url + '/admin/api/overview', { headers: bearer() })).json()) as any
      expect(o.facilitator).toEqual({ kind: 'remote', health: facilitator.health() })
      expect(o.payee_balance_atomic).toBe('4200000')
      expect(o).toMatchObject({ network: 'eip155:8453', dev_chain: true, explorer: null, window_days: 30 })
    } finally {
      await s.stop()
    }
  })

  test('other methods on /admin are refused without leaking anything, still no-store', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const r = await fetch(open.url + '/admin/api/payments', { method, headers: bearer() })
      expect(r.status).toBe(404)
      expect(r.headers.get('cache-control')).toBe('no-store')
    }
  })

  test('failed sign-ins are throttled per client (429 with Retry-After), and so are bad bearer tokens; the right token and a session always pass', async () => {
    const s = await startServer({ env: { ADMIN_TOKEN: TOKEN, TRUSTED_PROXIES: '1' } })
    try {
      const from = (ip: string, token: string) =>
        fetch(s.url + '/admin/login', {
          ...form(token),
          headers: { ...form(token).headers, origin: s.url, 'x-forwarded-for': ip },
        })
      // the operator signed in before the attack
      const before = await from('198.51.100.7', TOKEN)
      expect(before.status).toBe(303)
      const session = before.headers.get('set-cookie')!.split(';')[0]
      const statuses: number[] = []
      for (let i = 0; i < 11; i++) statuses.push((await from('198.51.100.7', 'wrong-token-wrong-token-wrong')).status)
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401))
      expect(statuses[10]).toBe(429)
      const blocked = await from('198.51.100.7', 'wrong-token-wrong-token-wrong')
      expect(blocked.status).toBe(429)
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
      const wrongApi = await fetch(s.url + '/admin/api/payments', {
        headers: { ...bearer('x'.repeat(30)), 'x-forwarded-for': '198.51.100.7' },
      })
      expect(wrongApi.status).toBe(429)
      expect(wrongApi.headers.get('cache-control')).toBe('no-store')
      // #24: ten wrong tries from the operator's address never lock out the operator's right token or session
      expect((await from('198.51.100.7', TOKEN)).status).toBe(303)
      const api = await fetch(s.url + '/admin/api/payments', {
        headers: { ...bearer(), 'x-forwarded-for': '198.51.100.7' },
      })
      expect(api.status).toBe(200)
      const withSession = await fetch(s.url + '/admin/api/overview', {
        headers: { cookie: session, 'x-forwarded-for': '198.51.100.7' },
      })
      expect(withSession.status).toBe(200)
      expect(
        (await fetch(s.url + '/admin', { headers: { cookie: session, 'x-forwarded-for': '198.51.100.7' } })).status,
      ).toBe(200)
      // and wrong ones are still slowed after the right one passed
      expect((await from('198.51.100.7', 'wrong-token-wrong-token-wrong')).status).toBe(429)
      // another client is unaffected
      expect((await from('198.51.100.8', TOKEN)).status).toBe(303)
      for (let i = 0; i < 10; i++)
        await fetch(s.url + '/admin/api/payments', {
          headers: { ...bearer('x'.repeat(30)), 'x-forwarded-for': '198.51.100.9' },
        })
      const tooMany = (t: string) =>
        fetch(s.url + '/admin/api/payments', { headers: { ...bearer(t), 'x-forwarded-for': '198.51.100.9' } })
      expect((await tooMany('x'.repeat(30))).status).toBe(429)
      expect((await tooMany(TOKEN)).status).toBe(200)
      // no token ever reaches the logs
      expect(s.logs.join('\n')).not.toContain(TOKEN)
    } finally {
      await s.stop()
    }
  })
})
