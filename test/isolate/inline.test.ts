/**
 * Cheap, linear services run small calls on the main thread (runtime/isolate/inline.ts, issue #38): where a call ran
 * is counted (the pool's workers and the inline runner's runs) and answered by the handler itself (`main`), never
 * timed. A wrong declaration (a slow run, an async handler) sends its service back to the pool, once.
 */
import { afterAll, expect, test } from 'bun:test'
import { buildCatalog, type CatalogService } from '../../runtime/catalog'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { loadConfig } from '../../runtime/config'
import { HandlerPool, isolated } from '../../runtime/isolate'
import { jsonSize } from '../../runtime/isolate/json-size'
import { createLogger } from '../../runtime/log'
import { defineService, ServiceError, t, testContext } from '../../runtime/sdk'
import { categories } from '../support/entries'

const logs: string[] = []
const pool = new HandlerPool(
  { workers: 1, maxWorkers: 2, memoryMb: 256, answerMb: 1, processMb: 65536, inlineKb: 16, inlineMs: 5 },
  createLogger('info', (l) => logs.push(l)),
)
afterAll(() => pool.close())

const manifest = (slug: string, linear: boolean) =>
  defineService({
    slug,
    name: 'Test linear',
    description: 'Answers where it ran (tests only).',
    category: 'text',
    kind: 'utility',
    method: 'POST',
    pricing: { flat: { price_usd: 0.001, max_tokens: 0 } },
    model: 'none',
    linear,
    input: t.Object({ code: t.String(), text: t.Optional(t.String()) }),
    output: t.Object({ echo: t.String() }),
    examples: [],
  })

const LINEAR = new URL('./linear-handler.ts', import.meta.url).href
const ASYNC = new URL('../support/hostile-handler.ts', import.meta.url).href

const entry = (slug: string, linear: boolean, module = LINEAR): RegistryEntry => ({
  folder: slug,
  manifest: manifest(slug, linear),
  module,
  handler: () => {
    throw new Error('runs through the pool or the inline runner')
  },
})

const entries = [
  entry('lin-small', true),
  entry('lin-slow', true),
  entry('lin-checks', true),
  entry('lin-promise', true),
  entry('not-linear', false),
  entry('lin-async', true, ASYNC),
]
const services = isolated(
  entries.map((e) => ({ slug: e.folder, manifest: e.manifest, handler: e.handler }) as CatalogService),
  entries,
  pool,
)
const call = (slug: string, input: { code: string; text?: string }, signal?: AbortSignal) =>
  Promise.resolve()
    .then(() =>
      services.find((s) => s.slug === slug)!.handler!(input as never, {
        ...testContext({ service: slug }),
        ...(signal && { signal }),
      }),
    )
    .catch((e) => e) as Promise<Record<string, unknown>>

test('a linear service runs a small call on the main thread (no worker started) and a large one in the pool', async () => {
  const before = { ...pool.counts }
  expect(await call('lin-small', { code: 'hi' })).toEqual({ echo: 'HI', main: true, length: 0 })
  expect(await call('lin-small', { code: 'again', text: 'a'.repeat(16_000) })).toMatchObject({ main: true })
  expect(pool.counts.started).toBe(before.started)
  expect(pool.size.workers).toBe(0)
  expect(pool.inline.counts.runs).toBe(2)
  // over ISOLATE_INLINE_KB (16 KiB of JSON): the pool, as every call before issue #38
  expect(await call('lin-small', { code: 'large', text: 'a'.repeat(17_000) })).toEqual({
    echo: 'LARGE',
    main: false,
    length: 17_000,
  })
  expect(pool.counts.started).toBeGreaterThan(before.started)
  expect(pool.inline.counts.runs).toBe(2)
  // and back on the main thread for the next small one: the service was not sent back
  expect(await call('lin-small', { code: 'small' })).toMatchObject({ main: true })
})

test('a service that does not declare itself linear always runs in the pool', async () => {
  const runs = pool.inline.counts.runs
  expect(await call('not-linear', { code: 'x' })).toMatchObject({ echo: 'X', main: false })
  expect(pool.inline.counts.runs).toBe(runs)
})

test('a run over the CPU budget sends its service to the pool for good, logged once; other services stay inline', async () => {
  const demoted = pool.inline.counts.demoted
  expect(await call('lin-slow', { code: 'spin:40' })).toMatchObject({ echo: 'SPIN:40', main: true })
  expect(pool.inline.counts.demoted).toBe(demoted + 1)
  expect(pool.inline.runsHere('lin-slow')).toBe(false)
  // the same service's next calls (quick or slow) run in a worker; nothing more is logged
  expect(await call('lin-slow', { code: 'quick' })).toMatchObject({ echo: 'QUICK', main: false })
  expect(await call('lin-slow', { code: 'spin:40' })).toMatchObject({ main: false })
  expect(pool.inline.counts.demoted).toBe(demoted + 1)
  expect(logs.filter((l) => l.includes('lin-slow') && l.includes('worker pool from now on'))).toHaveLength(1)
  expect(await call('lin-small', { code: 'still' })).toMatchObject({ main: true })
})

test('an async handler declared linear never runs inline; one returning a promise is sent back after its run', async () => {
  // hostile-handler.ts is an async function: found when its module loads, before any run here
  const runs = pool.inline.counts.runs
  expect(await call('lin-async', { code: 'keep:0' })).toEqual({ echo: 'kept 0' })
  expect(pool.inline.counts.runs).toBe(runs)
  expect(pool.inline.runsHere('lin-async')).toBe(false)
  expect(await call('lin-promise', { code: 'promise' })).toEqual({ echo: 'LATER', main: true })
  expect(pool.inline.runsHere('lin-promise')).toBe(false)
  expect(await call('lin-promise', { code: 'promise' })).toEqual({ echo: 'LATER', main: false })
})

test("what the pool gives holds inline: the error's shape, the answer cap, data only, a stopped call never runs", async () => {
  const e = (await call('lin-checks', { code: 'refuse' })) as unknown as ServiceError
  expect(e).toBeInstanceOf(ServiceError)
  expect([e.status, e.code, e.message, e.retryable]).toEqual([429, 'BUSY', 'busy, try later', true])
  expect(e.headers).toEqual({ 'retry-after': '3' })
  const big = (await call('lin-checks', { code: 'big' })) as unknown as ServiceError
  expect([big.status, big.code]).toEqual([422, 'RESPONSE_TOO_LARGE'])
  expect(big.message).toContain('over the 1 MB one call may return')
  const fn = (await call('lin-checks', { code: 'function' })) as unknown as Error
  expect(fn).not.toBeInstanceOf(ServiceError)
  expect(fn.message).toContain('cannot be sent')
  const stopped = new AbortController()
  stopped.abort()
  const s = (await call('lin-checks', { code: 'never' }, stopped.signal)) as unknown as ServiceError
  expect([s.status, s.code]).toEqual([504, 'HANDLER_TIMEOUT'])
  // none of these was slow: the service still runs inline
  expect(pool.inline.runsHere('lin-checks')).toBe(true)
  expect(await call('lin-checks', { code: 'fine' })).toMatchObject({ main: true })
})

test('above the process memory bound a small call of a linear service is refused as the pool refuses (503 BUSY)', async () => {
  const bound = new HandlerPool(
    { workers: 1, maxWorkers: 1, memoryMb: 256, answerMb: 1, processMb: 64 },
    createLogger('error'),
  )
  try {
    const svcs = isolated(
      entries.slice(0, 1).map((e) => ({ slug: e.folder, manifest: e.manifest, handler: e.handler }) as CatalogService),
      entries,
      bound,
    )
    const run = () =>
      Promise.resolve()
        .then(() => svcs[0]!.handler!({ code: 'x' } as never, testContext({ service: 'lin-small' })))
        .catch((e: ServiceError) => e)
    // before any reading the call runs here; the pool's first reading (this test process is above 64 MB) refuses
    expect(await run()).toMatchObject({ main: true })
    const other = await bound
      .run({ slug: 'x', module: LINEAR, upstreams: [] }, { code: 'y' }, testContext())
      .catch((e) => e)
    expect((other as ServiceError).code).toBe('BUSY')
    const refused = (await run()) as ServiceError
    expect([refused.status, refused.code]).toEqual([503, 'BUSY'])
    expect(refused.message).toContain('memory bound')
    expect(bound.inline.counts.runs).toBe(1)
  } finally {
    bound.close()
  }
})

test('ISOLATE_INLINE_KB=0 runs every call in the pool', async () => {
  const off = new HandlerPool(
    { workers: 1, maxWorkers: 1, memoryMb: 256, answerMb: 1, processMb: 65536, inlineKb: 0 },
    createLogger('error'),
  )
  try {
    const [svc] = isolated(
      [{ slug: 'lin-small', manifest: entries[0]!.manifest, handler: entries[0]!.handler } as CatalogService],
      entries,
      off,
    )
    const out = await svc!.handler!({ code: 'x' } as never, testContext({ service: 'lin-small' }))
    expect(out).toMatchObject({ main: false })
    expect(off.inline.counts.runs).toBe(0)
  } finally {
    off.close()
  }
})

test('boot refuses a linear service that needs the network, a model or an upstream', () => {
  const { config } = loadConfig({})
  const bad = { ...entry('lin-fetch', true), manifest: { ...manifest('lin-fetch', true), needs: ['fetch' as const] } }
  const { problems } = buildCatalog([bad], config, true, categories)
  expect(problems).toContain(
    'services/lin-fetch: a linear service (runs on the main thread for small inputs) has no needs and no upstreams',
  )
})

test("the input's size is counted only as far as the bound: a huge input costs what a small one does", () => {
  expect(jsonSize({ a: 'xy', b: [1, true, null] }, 1000)).toEqual({
    size: 2 + 5 + 4 + 5 + 2 + 3 + 8 + 5 + 4,
    unsendable: false,
  })
  const huge = { rows: Array.from({ length: 100_000 }, (_, i) => ({ i })) }
  expect(jsonSize(huge, 16_384).size).toBeGreaterThan(16_384)
  expect(jsonSize({ f: () => 1 }, 100).unsendable).toBe(true)
  expect(jsonSize({ n: 1n }, 100).unsendable).toBe(true)
})
