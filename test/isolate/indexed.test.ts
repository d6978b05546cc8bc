/**
 * Which handlers the pool runs (runtime/isolate/index.ts): the entries the entry point makes from the generated index
 * (`registryEntries`), found in the worker by folder (services/handlers.gen.ts); a copy or a test's own entry stays
 * what it is.
 */
import { afterAll, expect, test } from 'bun:test'
import { buildCatalog } from '../../runtime/catalog/index'
import { loadConfig } from '../../runtime/config'
import { HandlerPool, isolated } from '../../runtime/isolate'
import { createLogger } from '../../runtime/log'
import { isIndexed, registryEntries } from '../../runtime/catalog/registry'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { testContext } from '../../runtime/sdk'
import { categories, services } from '../../services/index.gen'

const pool = new HandlerPool(
  { workers: 1, maxWorkers: 1, memoryMb: 256, answerMb: 1, processMb: 65536 },
  createLogger('silent'),
)
afterAll(() => pool.close())
const served = (e: RegistryEntry) => {
  const { services: catalog, problems } = buildCatalog([e], loadConfig({}).config, false, categories)
  expect(problems).toEqual([])
  return isolated(catalog, [e], pool)[0]
}
const [slugify] = registryEntries(services.filter((f) => f.folder === 'slugify'))

test('an entry of the generated index runs in the pool, its handler found by folder inside the worker', async () => {
  expect(isIndexed(slugify)).toBe(true)
  const s = served(slugify)
  expect(s.handler).not.toBe(slugify.handler)
  expect(pool.size.workers).toBe(0) // workers start on first use: the call below starts the one that runs it
  const ctx = testContext({ service: 'slugify' })
  expect(await (s.handler as (i: unknown, c: unknown) => Promise<unknown>)({ text: 'Hello World' }, ctx)).toEqual(
    await (slugify.handler as (i: unknown, c: unknown) => Promise<unknown>)({ text: 'Hello World' }, ctx),
  )
  expect(pool.size.workers).toBe(1)
})

test('a copy of an indexed entry (a test that swaps its handler) stays on the main thread', () => {
  const copy = { ...slugify, handler: () => ({ slug: 'mine' }) }
  expect(isIndexed(copy)).toBe(false)
  expect(served(copy).handler).toBe(copy.handler)
})
