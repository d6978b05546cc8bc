/**
 * GET /health as one of Bun.serve's own routes (runtime/http/health.ts, issue #38): over the socket it never enters
 * Elysia, and still answers what the app's route answers (`app.handle`), pings the database at most once a second,
 * refuses a malformed Host in the error shape (test/money/bad-host.test.ts: every malformed Host, real sockets),
 * answers an error in the error shape, and with metrics on is counted under the `health` route group.
 */
import { afterAll, beforeAll, expect, setSystemTime, test } from 'bun:test'
import { healthRoute } from '../../runtime/http/health'
import { createLogger } from '../../runtime/log'
import { sample, samples } from '../support/prometheus'
import { startServer, type TestServer } from '../support/server'

const ADMIN_TOKEN = 'health-test-admin-token-0123456789abcd'
let plain: TestServer
let withMetrics: TestServer
beforeAll(async () => {
  ;[plain, withMetrics] = await Promise.all([startServer(), startServer({ env: { ADMIN_TOKEN } })])
})
afterAll(() => Promise.all([plain?.stop(), withMetrics?.stop()]))

// Date and Content-Length are the socket's own (app.handle's Response has neither)
const heads = (r: Response) =>
  Object.fromEntries([...r.headers].filter(([k]) => k !== 'date' && k !== 'content-length'))

test("over the socket, /health is Bun's own route: the same answer as the app's route, and only /health", async () => {
  const routes = (plain.booted.app.config.serve as { routes?: Record<string, unknown> }).routes
  expect(Object.keys(routes ?? {})).toEqual(['/health'])
  const socket = await fetch(`${plain.url}/health`)
  const inApp = await plain.booted.app.handle(new Request(`${plain.url}/health`))
  expect(socket.status).toBe(200)
  expect(inApp.status).toBe(200)
  expect(heads(socket)).toEqual(heads(inApp))
  expect(heads(socket)).toEqual({
    'content-type': 'application/json; charset=utf-8',
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  })
  const a = await socket.json()
  const b = await inApp.json()
  expect({ ...a, uptime_seconds: 0 }).toEqual({ ...b, uptime_seconds: 0 })
  expect(a).toMatchObject({ status: 'ok', database: 'ok', database_kind: 'sqlite', version: '1.0.0' })
  // a query string is the same route
  expect((await fetch(`${plain.url}/health?probe=1`)).status).toBe(200)
  // the preflight and other methods still go to the app (its OPTIONS answer on every path, its 404)
  const preflight = await fetch(`${plain.url}/health`, { method: 'OPTIONS' })
  expect(preflight.status).toBe(204)
  expect(preflight.headers.get('access-control-allow-methods')).toContain('GET')
  const post = await fetch(`${plain.url}/health`, { method: 'POST' })
  expect(post.status).toBe(404)
  expect((await post.json()).error.code).toBe('NOT_FOUND')
})

test('with metrics on, each /health over the socket is counted once under the health group', async () => {
  const scrape = async () =>
    samples(await (await withMetrics.fetch('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text())
  const labels = { route: 'health', status: '200' }
  const before = sample(await scrape(), 'x402_http_responses_total', labels)
  for (let i = 0; i < 5; i++) expect((await withMetrics.fetch('/health')).status).toBe(200)
  expect(sample(await scrape(), 'x402_http_responses_total', labels) - before).toBe(5)
  // and through the app (app.handle), by the ops hook: once as well
  await withMetrics.booted.app.handle(new Request(`${withMetrics.url}/health`))
  expect(sample(await scrape(), 'x402_http_responses_total', labels) - before).toBe(6)
})

const healthFor = (ping: () => Promise<boolean>, report: (db: boolean) => unknown = (db) => ({ db })) => {
  const logged: string[] = []
  const log = createLogger('info', (l) => logged.push(l))
  return { logged, route: healthRoute({ report, ping, log }) }
}
const req = () => new Request('http://127.0.0.1/health')

test('the database is pinged at most once a second, whatever the number of probes; down is a 503', async () => {
  let pings = 0
  let up = true
  const { route } = healthFor(async () => (pings++, up))
  try {
    setSystemTime(new Date('2026-11-28T12:00:00.000Z'))
    const first = await route.direct(req())
    expect([first.status, await first.json()]).toEqual([200, { db: true }])
    for (let i = 0; i < 100; i++) expect((await route.direct(req())).status).toBe(200)
    expect(pings).toBe(1)
    up = false
    setSystemTime(new Date('2026-11-28T12:00:00.999Z'))
    expect((await route.direct(req())).status).toBe(200) // still within the second
    expect(pings).toBe(1)
    setSystemTime(new Date('2026-11-28T12:00:01.000Z'))
    const down = await route.direct(req())
    expect([down.status, await down.json()]).toEqual([503, { db: false }])
    for (let i = 0; i < 50; i++) expect((await route.answer()).status).toBe(503) // the app's route shares the cache
    expect(pings).toBe(2)
  } finally {
    setSystemTime()
  }
})

test('an error while building the report is a 500 in the error shape, logged, never a stack', async () => {
  const { route, logged } = healthFor(
    async () => true,
    () => {
      throw new Error('report failed at /work/secret/path')
    },
  )
  const r = await route.direct(req())
  expect(r.status).toBe(500)
  const body = await r.json()
  expect(Object.keys(body).sort()).toEqual(['error', 'request_id'])
  expect(body.error.code).toBe('INTERNAL')
  expect(JSON.stringify(body)).not.toContain('/work/')
  expect(logged.join('\n')).toContain(body.request_id)
})
