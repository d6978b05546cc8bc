/**
 * The pool's memory (runtime/isolate/pool.ts, issue #32 item 8 and issue #38's RSS read): a new worker's start-up
 * and its first module load are never charged to the calls running; RSS is read by the sampler and on need, never
 * per call; above ISOLATE_PROCESS_MB new calls are refused and the computing call that grew the process most is
 * stopped; a worker left large by its call (or past its number of calls) is replaced, so memory comes back between
 * rounds of heavy calls. Assertions on counts and on memory coming back, never on time.
 */
import { afterEach, expect, test } from 'bun:test'
import { HandlerPool, type PoolSettings } from '../../runtime/isolate/pool'
import { createLogger } from '../../runtime/log'
import { ServiceError, testContext, type FetchedPage } from '../../runtime/sdk'
import { until } from '../support/until'

const MB = 1_048_576
const module = new URL('../support/hostile-handler.ts', import.meta.url).href
const pools: HandlerPool[] = []
afterEach(() => {
  for (const p of pools.splice(0)) p.close()
})
const rss = () => process.memoryUsage.rss()

/**
 * RSS once it has stopped falling: an earlier file's pools (this process runs every file of a `bun test` run) give
 * their workers' memory back as those threads exit, which would be counted against the growth measured here.
 */
async function settledRss() {
  Bun.gc(true)
  let last = rss()
  await until(
    async () => {
      await Bun.sleep(200)
      const now = rss()
      const steady = last - now < 2 * MB
      last = now
      return steady
    },
    60_000,
    'RSS no longer falling',
  )
  return last
}

function poolOf(o: Partial<PoolSettings>) {
  const pool = new HandlerPool(
    { workers: 1, maxWorkers: 8, memoryMb: 256, answerMb: 1, processMb: 65536, ...o },
    createLogger('silent'),
  )
  pools.push(pool)
  return pool
}

/** Pages that answer when the test says (a call waiting on one holds its worker, as a slow page read does). */
function pages() {
  const fetched: string[] = []
  const held: Array<() => void> = []
  const fetch = (async (url: string) => {
    fetched.push(url)
    await new Promise<void>((r) => held.push(r))
    const body = new TextEncoder().encode('<html><body><article><p>ok</p></article></body></html>')
    return {
      url,
      finalUrl: url,
      status: 200,
      headers: new Headers({ 'content-type': 'text/html' }),
      contentType: 'text/html',
      body,
    }
  }) as unknown as (url: string) => Promise<FetchedPage>
  return { fetched, fetch: fetch as never, releaseAll: () => held.splice(0).forEach((r) => r()) }
}

const hostile = (pool: HandlerPool, code: string, caller = 'a', extra: object = {}) =>
  pool
    .run(
      { slug: 'test-hang', module, upstreams: [] },
      { code },
      { ...testContext({ service: 'test-hang', ...extra }), caller },
    )
    .catch((e: Error) => e)

test("new workers' start-up and first module loads are not charged to the calls running (no MEMORY_LIMIT)", async () => {
  // a 32 MB ceiling per call, while six workers start and each loads read-url's module (the flood)
  const pool = poolOf({ memoryMb: 32, callerWorkers: 8 })
  const p = pages()
  const rssBefore = await settledRss()
  const first = hostile(pool, 'fetch:http://page/first', 'first', { fetch: p.fetch })
  await until(() => p.fetched.length === 1, 30_000, 'the first call waiting on its page')
  const reads = Array.from({ length: 6 }, (_, i) =>
    pool
      .run(
        { slug: 'read-url', upstreams: [] },
        { code: `https://example.com/page-${i}` },
        { ...testContext({ service: 'read-url', fetch: p.fetch }), caller: `c${i}` },
      )
      .catch((e: Error) => e),
  )
  await until(() => p.fetched.length === 7, 60_000, 'every call waiting on its page')
  expect(pool.size).toMatchObject({ busy: 7 })
  // the sampler has looked at the memory many times since every worker started and loaded its module
  const samples = pool.counts.samples
  await until(() => pool.counts.samples >= samples + 10, 30_000, 'ten more samples')
  const grown = rss() - rssBefore
  p.releaseAll()
  const answers = await Promise.all([first, ...reads])
  for (const a of answers) expect(a instanceof ServiceError ? a.code : 'answered').not.toBe('MEMORY_LIMIT')
  expect(answers[0]).toEqual({ echo: '200' })
  // the process did grow by more than one call's ceiling (~117 MB measured): what stopped innocent calls before
  expect(grown).toBeGreaterThan(32 * MB)
}, 90_000)

test('RSS is read by the sampler and at start-ups, never once per call', async () => {
  const pool = poolOf({ workers: 2, maxWorkers: 2 })
  const real = process.memoryUsage.rss
  let reads = 0
  process.memoryUsage.rss = () => {
    reads++
    return real()
  }
  try {
    for (let i = 0; i < 300; i++)
      expect(await hostile(pool, `n${i}`, 'a', { service: 'test-quick' })).toEqual({ echo: `N${i}` })
  } finally {
    process.memoryUsage.rss = real
  }
  // the sampler's ticks, plus one per worker started and per module a worker loaded, plus one per idle restart at most
  const extra = reads - pool.counts.samples
  expect(extra).toBeLessThan(20)
  expect(reads).toBeLessThan(300)
}, 90_000)

test('above ISOLATE_PROCESS_MB a new call is refused at once (503 BUSY, Retry-After) and never runs', async () => {
  // a bound below what the test process itself holds
  const pool = poolOf({ processMb: Math.floor(rss() / MB / 2) })
  const e = (await hostile(pool, 'never', 'a', { service: 'test-quick' })) as ServiceError
  expect([e.status, e.code, e.retryable]).toEqual([503, 'BUSY', true])
  expect(e.message).toContain('memory bound')
  expect(Number(e.headers?.['retry-after'])).toBeGreaterThan(0)
  expect(pool.counts.refusedMemory).toBe(1)
  expect(pool.size.busy).toBe(0)
})

test('above ISOLATE_PROCESS_MB the computing call that grew the process is stopped, under its own ceiling', async () => {
  // a per-call ceiling far away (2 GB), a process bound 192 MB above now: the bound stops the bloat
  const bound = Math.ceil(rss() / MB) + 192
  const pool = poolOf({ memoryMb: 2048, processMb: bound })
  const e = (await hostile(pool, 'x', 'a', { service: 'test-bloat' })) as ServiceError
  expect([e.status, e.code]).toEqual([422, 'MEMORY_LIMIT'])
  await until(() => rss() < bound * MB, 30_000, 'memory back under the bound')
  // the pool judges by its own latest reading (up to 40 ms old): a call may be refused (503 BUSY) until it is under too
  let after: unknown
  await until(
    async () => {
      after = await hostile(pool, 'after', 'a', { service: 'test-quick' })
      return !(after instanceof ServiceError && after.code === 'BUSY')
    },
    30_000,
    'a call runs once the pool reads the memory back under its bound',
  )
  expect(after).toEqual({ echo: 'AFTER' })
}, 60_000)

test('rounds of heavy calls: each worker left large is replaced, so RSS comes back between rounds', async () => {
  const pool = poolOf({ workers: 3, maxWorkers: 3, memoryMb: 1024, workerMb: 32, callerWorkers: 3 })
  // warm: the three workers started and the handler loaded in each (their baseline)
  await Promise.all(['a', 'b', 'c'].map((c) => hostile(pool, 'warm', c, { service: 'test-quick' })))
  const base = rss()
  for (let round = 1; round <= 3; round++) {
    const out = await Promise.all(['a', 'b', 'c'].map((c) => hostile(pool, 'keep:96', c)))
    expect(out.map((o) => (o as { echo: string }).echo.startsWith('kept'))).toEqual([true, true, true])
    expect(pool.counts.recycled).toBe(3 * round)
    // the three 96 MB heaps are gone with their workers: the process is back near where it started
    await until(() => rss() < base + 96 * MB, 30_000, `round ${round}: memory back`)
  }
}, 120_000)

test('a worker is replaced after ISOLATE_WORKER_JOBS calls', async () => {
  const pool = poolOf({ workers: 1, maxWorkers: 1, workerJobs: 3 })
  for (let i = 0; i < 7; i++)
    expect(await hostile(pool, `j${i}`, 'a', { service: 'test-quick' })).toEqual({ echo: `J${i}` })
  expect(pool.counts.recycled).toBe(2)
  expect(pool.counts.started).toBe(3)
})
