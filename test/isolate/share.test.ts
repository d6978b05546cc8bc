/**
 * The pool shared fairly (runtime/isolate/pool.ts, issue #32 item 8): a bounded queue and a per-caller share, both
 * refusing at once with a retryable 503 BUSY and Retry-After; a free worker goes to the caller with the fewest calls
 * running. Calls hold their worker on the main thread's `ctx.fetch` (as a page read does), released by the test:
 * every assertion is on counts and order, none on time.
 */
import { afterEach, expect, test } from 'bun:test'
import { HandlerPool, type PoolSettings } from '../../runtime/isolate/pool'
import { createLogger } from '../../runtime/log'
import { ServiceError, testContext, type FetchedPage } from '../../runtime/sdk'
import { until } from '../support/until'

const module = new URL('../support/hostile-handler.ts', import.meta.url).href
const pools: HandlerPool[] = []
afterEach(() => {
  for (const p of pools.splice(0)) p.close()
})

/** A pool, and the pages its calls are waiting for: `fetched` in the order asked, each answered by `release`. */
function setup(o: Partial<PoolSettings>) {
  const pool = new HandlerPool(
    { workers: 1, maxWorkers: 4, memoryMb: 256, answerMb: 1, processMb: 65536, ...o },
    createLogger('silent'),
  )
  pools.push(pool)
  const fetched: string[] = []
  const held = new Map<string, () => void>()
  const fetch = (async (url: string) => {
    fetched.push(url)
    await new Promise<void>((r) => held.set(url, r))
    return { url, status: 200, headers: new Headers(), contentType: 'text/plain', body: new Uint8Array() }
  }) as unknown as (url: string) => Promise<FetchedPage>
  /** A call of `caller` that waits for page `name`; settles to its answer or its error. */
  const call = (caller: string, name: string) =>
    pool
      .run(
        { slug: 'test-hang', module, upstreams: [] },
        { code: `fetch:${name}` },
        { ...testContext({ service: 'test-hang', fetch: fetch as never }), caller },
      )
      .catch((e: Error) => e)
  const release = (name: string) => held.get(name)!()
  return { pool, fetched, call, release }
}

const busy = (e: unknown) => {
  expect(e).toBeInstanceOf(ServiceError)
  const err = e as ServiceError
  expect([err.status, err.code, err.retryable]).toEqual([503, 'BUSY', true])
  expect(Number(err.headers?.['retry-after'])).toBeGreaterThan(0)
  expect(err.message).toContain('nothing was charged')
  return err
}

test('one caller holds at most its share of workers and of the queue; the rest is refused at once (503, Retry-After)', async () => {
  const { pool, fetched, call, release } = setup({ maxWorkers: 8, callerWorkers: 2, callerQueue: 1 })
  const flood = Array.from({ length: 6 }, (_, i) => call('0xflood', `flood-${i}`))
  // 2 running (their pages asked), 1 waiting, 3 refused without running
  const refused = await Promise.all(flood.slice(3))
  for (const e of refused) expect(busy(e).message).toContain('its share of the handler workers')
  await until(() => fetched.length === 2, 30_000, 'the share running')
  expect(pool.callerSize('0xflood')).toEqual({ running: 2, waiting: 1 })
  expect(pool.counts.refusedCaller).toBe(3)
  // another caller runs at once beside the flood, its call answered while every flood call still waits on its page
  const other = call('0xother', 'other')
  await until(() => fetched.includes('other'), 30_000, "the other caller's call running")
  release('other')
  expect(await other).toEqual({ echo: '200' })
  expect(fetched.filter((f) => f.startsWith('flood')).length).toBe(2)
  // the flood's waiting call runs when one of its running calls ends, and all three answer
  release('flood-0')
  await until(() => fetched.includes('flood-2'), 30_000, 'the waiting flood call running')
  release('flood-1')
  release('flood-2')
  expect(await Promise.all(flood.slice(0, 3))).toEqual([{ echo: '200' }, { echo: '200' }, { echo: '200' }])
  expect(pool.callerSize('0xflood')).toEqual({ running: 0, waiting: 0 })
}, 60_000)

test('the queue is bounded for all callers together: past it a call is refused at once and never runs', async () => {
  const { pool, fetched, call, release } = setup({ maxWorkers: 1, callerWorkers: 1, callerQueue: 5, queue: 2 })
  const first = call('a', 'a-0')
  await until(() => fetched.length === 1, 30_000, 'the first call running')
  const waiting = [call('b', 'b-0'), call('c', 'c-0')]
  expect(pool.size).toMatchObject({ busy: 1, waiting: 2 })
  const refused = await call('d', 'd-0')
  expect(busy(refused).message).toContain('the queue is full')
  expect(pool.counts.refusedQueue).toBe(1)
  release('a-0')
  await until(() => fetched.length === 2, 30_000, 'the next call running')
  release(fetched[1]!)
  await until(() => fetched.length === 3, 30_000, 'the last call running')
  release(fetched[2]!)
  expect(await Promise.all([first, ...waiting])).toEqual([{ echo: '200' }, { echo: '200' }, { echo: '200' }])
  // the refused call never ran
  expect(fetched).not.toContain('d-0')
}, 60_000)

test('a free worker goes to the waiting caller with the fewest calls running, not to the flood queued before it', async () => {
  const { fetched, call, release } = setup({ maxWorkers: 2, callerWorkers: 2, callerQueue: 3, queue: 10 })
  const flood = [call('flood', 'f-0'), call('flood', 'f-1')]
  await until(() => fetched.length === 2, 30_000, 'the flood holding both workers')
  flood.push(call('flood', 'f-2'), call('flood', 'f-3'))
  const cheap = call('cheap', 'c-0')
  release('f-0')
  // the worker freed by the flood goes to the caller with none running, though two flood calls waited longer
  await until(() => fetched.length === 3, 30_000, 'a waiting call running')
  expect(fetched[2]).toBe('c-0')
  release('c-0')
  expect(await cheap).toEqual({ echo: '200' })
  await until(() => fetched.length === 4, 30_000, 'the flood next')
  for (const f of ['f-1', 'f-2']) release(f)
  await until(() => fetched.length === 5, 30_000, 'the last flood call')
  release('f-3')
  expect((await Promise.all(flood)).every((r) => (r as { echo?: string }).echo === '200')).toBe(true)
}, 60_000)

test('a burst of short calls from one caller is queued, not refused: only calls that hold a worker count toward the share', async () => {
  const { pool } = setup({ workers: 1, maxWorkers: 1, callerWorkers: 1, callerQueue: 1, queue: 64 })
  const quick = (i: number) =>
    pool.run(
      { slug: 'test-quick', module, upstreams: [] },
      { code: `q${i}` },
      { ...testContext({ service: 'test-quick' }), caller: '0xagent' },
    )
  const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => quick(i)))
  expect(answers).toEqual(Array.from({ length: 24 }, (_, i) => ({ echo: `Q${i}` })))
  expect(pool.counts.refusedCaller).toBe(0)
}, 60_000)
