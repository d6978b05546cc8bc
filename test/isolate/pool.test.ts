/** The worker pool on its own (runtime/isolate/pool.ts): what crosses the thread, and calls that wait for a worker. */
import { afterAll, expect, test } from 'bun:test'
import { HandlerPool } from '../../runtime/isolate'
import { loadConfig } from '../../runtime/config'
import { createLogger } from '../../runtime/log'
import { ServiceError, testContext } from '../../runtime/sdk'
import { until } from '../support/until'

const logs: string[] = []
const pool = new HandlerPool(
  { workers: 1, maxWorkers: 1, memoryMb: 256, answerMb: 1, processMb: 65536 },
  createLogger('info', (l) => logs.push(l)),
)
afterAll(() => pool.close())
const module = new URL('../support/hostile-handler.ts', import.meta.url).href
const call = (service: string, code: string, signal?: AbortSignal) =>
  pool.run(
    { slug: service, module, upstreams: [] },
    { code },
    { ...testContext({ service }), ...(signal && { signal }) },
  )

test("a handler's ServiceError crosses the thread whole: status, code, details, headers, retryable", async () => {
  const e = (await call('test-quick', 'refuse').catch((x) => x)) as ServiceError
  expect(e).toBeInstanceOf(ServiceError)
  expect([e.status, e.code, e.message, e.retryable]).toEqual([429, 'BUSY', 'busy, try later', true])
  expect(e.details).toEqual([{ path: '/code', message: 'refused' }])
  expect(e.headers).toEqual({ 'retry-after': '3' })
  expect(await call('test-quick', 'ok')).toEqual({ echo: 'OK' })
})

test('an answer that cannot cross the thread is a plain error (a 500 INTERNAL for the route), not a hang', async () => {
  const e = (await call('test-quick', 'function').catch((x) => x)) as Error
  expect(e).not.toBeInstanceOf(ServiceError)
  expect(e.message).toContain('cannot be sent')
  expect(await call('test-quick', 'again')).toEqual({ echo: 'AGAIN' })
})

test('with every worker busy a call waits; stopped while waiting, it leaves the queue and never runs', async () => {
  const spin = new AbortController()
  const spinning = call('test-hang', 'x', spin.signal).catch((x) => x)
  await until(() => logs.some((l) => l.includes('test-hang started')), 30_000, 'spinning')
  const waiter = new AbortController()
  const waiting = call('test-quick', 'never', waiter.signal).catch((x) => x)
  await until(() => pool.size.waiting === 1, 5_000, 'queued')
  waiter.abort()
  expect(((await waiting) as ServiceError).code).toBe('HANDLER_TIMEOUT')
  expect(pool.size).toMatchObject({ busy: 1, waiting: 0, workers: 1 })
  spin.abort()
  expect(((await spinning) as ServiceError).status).toBe(504)
  expect(await call('test-quick', 'next')).toEqual({ echo: 'NEXT' })
})

test('an answer over the cap is refused inside the worker (422 RESPONSE_TOO_LARGE), never sent to the event loop', async () => {
  const e = (await call('test-quick', 'big').catch((x) => x)) as ServiceError
  expect([e.status, e.code]).toEqual([422, 'RESPONSE_TOO_LARGE'])
  expect(e.message).toContain('over the 1 MB one call may return')
})

test('ISOLATE_* configure the pool; a maximum below the warm count or a tiny memory ceiling is refused at boot', () => {
  const { config, problems } = loadConfig({ ISOLATE_WORKERS: '3', ISOLATE_MAX_WORKERS: '5', ISOLATE_MEMORY_MB: '300' })
  expect(problems).toEqual([])
  expect(config.isolate).toEqual({
    workers: 3,
    maxWorkers: 5,
    memoryMb: 300,
    answerMb: 16,
    queue: 80,
    inlineKb: 16,
    inlineMs: 5,
    callerWorkers: 1,
    callerQueue: 1,
    processMb: 1024,
    workerMb: 128,
    workerJobs: 1000,
  })
  const bad = loadConfig({ ISOLATE_WORKERS: '4', ISOLATE_MAX_WORKERS: '2', ISOLATE_MEMORY_MB: '1' }).problems
  expect(bad).toContain('ISOLATE_MAX_WORKERS must be at least ISOLATE_WORKERS')
  expect(bad.some((p) => p.startsWith('ISOLATE_MEMORY_MB must be a number >= 16'))).toBe(true)
})
