/** The lazily built route groups (runtime/http/lazy-app.ts, runtime/lazy-routes.ts), with real Elysia apps. */
import { expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { lazyApp } from '../../runtime/http/lazy-app'
import { DatabaseUnavailable } from '../../runtime/db/errors'
import { contained } from '../../runtime/http/contained'

const req = (path: string) => new Request(`http://localhost${path}`)

test('built once on first use, even when the first requests arrive together', async () => {
  let builds = 0
  const forward = lazyApp(async () => {
    builds++
    await Bun.sleep(1)
    return new Elysia().get('/x', ({ request }) => new URL(request.url).pathname)
  })
  expect(builds).toBe(0)
  const answers = await Promise.all([1, 2, 3].map(() => forward(req('/x')).then((r) => r.text())))
  expect(answers).toEqual(['/x', '/x', '/x'])
  await forward(req('/x'))
  expect(builds).toBe(1)
})

test('a failed build fails that request and is retried by the next', async () => {
  let builds = 0
  const forward = lazyApp(async () => {
    if (++builds === 1) throw new Error('module failed to load')
    return new Elysia().get('/x', () => 'ok')
  })
  await expect(forward(req('/x'))).rejects.toThrow('module failed to load')
  expect(await (await forward(req('/x'))).text()).toBe('ok')
  expect(builds).toBe(2)
})

test('a route group that throws answers in the one error shape and logs the error, without its message', async () => {
  const logged: Array<[string, Record<string, unknown> | undefined]> = []
  const log = { info() {}, warn() {}, error: (m: string, f?: Record<string, unknown>) => void logged.push([m, f]) }
  const routes = new Elysia().get('/boom', () => {
    throw new Error('secret detail')
  })
  const bare = await routes.handle(req('/boom'))
  expect(await bare.text()).toBe('secret detail') // what a bare Elysia app would answer
  const r = await contained(routes, log).handle(req('/boom'))
  expect(r.status).toBe(500)
  const j = (await r.json()) as any
  expect(Object.keys(j).sort()).toEqual(['error', 'request_id'])
  expect(j.error.code).toBe('INTERNAL')
  expect(JSON.stringify(j)).not.toContain('secret detail')
  expect(logged.length).toBe(1)
  expect(String(logged[0][1]?.error)).toContain('secret detail')
})

test('a route group answers like the main app: the logged error carries the request id it answers with, a database error is a 503', async () => {
  const logged: Array<Record<string, unknown> | undefined> = []
  const messages: string[] = []
  const log = {
    info() {},
    warn() {},
    error: (m: string, f?: Record<string, unknown>) => void (messages.push(m), logged.push(f)),
  }
  const routes = new Elysia()
    .get('/boom', () => {
      throw new Error('boom')
    })
    .get('/db', () => {
      throw new DatabaseUnavailable('pool down')
    })
  const app = contained(routes, log)
  const r = await app.handle(req('/boom'))
  const j = (await r.json()) as any
  expect(j.request_id).toMatch(/^req_/)
  expect(r.headers.get('x-request-id') ?? j.request_id).toBe(j.request_id)
  expect(logged).toHaveLength(1)
  expect(logged[0]?.request_id).toBe(j.request_id)
  const d = await app.handle(req('/db'))
  expect(d.status).toBe(503)
  expect(d.headers.get('retry-after')).toBe('5')
  const dj = (await d.json()) as any
  expect(dj.error.code).toBe('DATABASE_UNAVAILABLE')
  expect(JSON.stringify(dj)).not.toContain('pool down')
  // a database outage is logged as one, with the request id it answered with, not as a crash (as on the paid path)
  expect(messages).toEqual(['unhandled error', 'database unavailable'])
  expect(logged[1]?.request_id).toBe(dj.request_id)
  expect(String(logged[1]?.error)).toContain('pool down')
})
