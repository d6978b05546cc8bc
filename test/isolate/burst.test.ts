/**
 * A burst of 128 calls, one per caller, at once (issue #38: the channels bench's 128 deposits): with the default
 * bounds (ISOLATE_QUEUE = 16 × ISOLATE_MAX_WORKERS) every call is queued and answered as workers free up, none refused;
 * the old bound (4 × ISOLATE_MAX_WORKERS) refused about half of them. A caller whose calls hold their workers still
 * keeps to its share and cannot fill the queue. Counts only.
 */
import { afterAll, expect, test } from 'bun:test'
import { loadConfig } from '../../runtime/config'
import { HandlerPool } from '../../runtime/isolate'
import { createLogger } from '../../runtime/log'
import { type FetchedPage, type ServiceError, testContext } from '../../runtime/sdk'
import { until } from '../support/until'

const module = new URL('../support/hostile-handler.ts', import.meta.url).href
const pools: HandlerPool[] = []
afterAll(() => {
  for (const p of pools) p.close()
})

/**
 * A pool with the defaults on this machine (ISOLATE_* unset), `change`d. The process's memory bound is out of the way:
 * these tests count the queue's refusals, and `bun test` runs every file in one process, whose RSS late in a full run
 * is past the default 1 GB (then every call is refused for memory, a bound test/isolate/memory.test.ts checks).
 */
const poolOf = (change: { queue?: number } = {}) => {
  const { config } = loadConfig({})
  const pool = new HandlerPool({ ...config.isolate, processMb: 1_000_000, ...change }, createLogger('error'))
  pools.push(pool)
  return pool
}

/** `n` quick calls at once, each from its own caller (or all from `caller`): their answers and refusals. */
async function burst(pool: HandlerPool, n: number, caller?: string) {
  const outs = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      pool
        .run(
          { slug: 'test-quick', module, upstreams: [] },
          { code: `c${i}` },
          { ...testContext({ service: 'test-quick' }), caller: caller ?? `0x${i.toString(16).padStart(40, '0')}` },
        )
        .then(
          (v) => ({ ok: v }),
          (e: ServiceError) => ({ refused: `${e.status} ${e.code}` }),
        ),
    ),
  )
  return {
    answered: outs.filter((o) => 'ok' in o).length,
    refused: outs.filter((o) => 'refused' in o).map((o) => (o as { refused: string }).refused),
  }
}

test('128 callers at once with the default bounds: every call answered, none refused', async () => {
  const pool = poolOf()
  const { answered, refused } = await burst(pool, 128)
  expect(refused).toEqual([])
  expect(answered).toBe(128)
  expect(pool.counts.refusedQueue).toBe(0)
  expect(pool.counts.refusedMemory).toBe(0)
})

test('the old bound (4 × ISOLATE_MAX_WORKERS) refused part of the same burst with 503 BUSY', async () => {
  const { config } = loadConfig({})
  const pool = poolOf({ queue: 4 * config.isolate.maxWorkers })
  const { refused } = await burst(pool, 128)
  expect(refused.length).toBeGreaterThan(0)
  expect(new Set(refused)).toEqual(new Set(['503 BUSY']))
})

test("one caller's flood of calls that hold their workers keeps to its share; the 128 callers' burst still all answered", async () => {
  const pool = poolOf()
  const { config } = loadConfig({})
  const held: Array<() => void> = []
  let fetched = 0
  const fetch = (async (url: string) => {
    fetched++
    await new Promise<void>((r) => held.push(r))
    return { url, status: 200, headers: new Headers(), contentType: 'text/plain', body: new Uint8Array() }
  }) as unknown as (url: string) => Promise<FetchedPage>
  const flood = Array.from({ length: 128 }, (_, i) =>
    pool
      .run(
        { slug: 'test-hang', module, upstreams: [] },
        { code: `fetch:page-${i}` },
        { ...testContext({ service: 'test-hang', fetch: fetch as never }), caller: '0xflood' },
      )
      .then(
        () => 'ok',
        (e: ServiceError) => `${e.status} ${e.code}`,
      ),
  )
  await until(() => fetched === config.isolate.callerWorkers, 30_000, 'the flood holds its share of workers')
  const { running, waiting } = pool.callerSize('0xflood')
  expect(running).toBe(config.isolate.callerWorkers)
  expect(waiting).toBeLessThanOrEqual(config.isolate.callerQueue)
  expect(pool.counts.refusedCaller).toBe(128 - running - waiting)
  const { answered, refused } = await burst(pool, 128)
  expect(refused).toEqual([])
  expect(answered).toBe(128)
  while (fetched < running + waiting || held.length) {
    for (const r of held.splice(0)) r()
    await Bun.sleep(10)
  }
  const outcomes = await Promise.all(flood)
  expect(outcomes.filter((o) => o === 'ok')).toHaveLength(running + waiting)
  expect(new Set(outcomes.filter((o) => o !== 'ok'))).toEqual(new Set(['503 BUSY']))
}, 60_000)
