import { defineService, serviceRequest, t } from '../../runtime/sdk'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { entries } from './entries'

const base = defineService({
  slug: 'test-quick',
  name: 'Test quick',
  description: 'Upper-cases the code at once, inside the worker pool (tests only).',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: { flat: { price_usd: 0.0011, max_tokens: 0 } },
  model: 'none',
  input: serviceRequest(),
  output: t.Object({ echo: t.String() }),
  examples: [{ name: 'hello', input: { code: 'hello' } }],
})

/**
 * Test-only services that run in the worker pool from a module (test/support/hostile-handler.ts): `test-quick`
 * answers at once; `test-spin` never returns (3 s deadline); `test-hang` never returns either (a 60 s deadline, so
 * only the client leaving or the test's end stops it); `test-bloat` allocates until the memory ceiling stops it.
 */
export const hostileManifests = [
  base,
  {
    ...base,
    slug: 'test-spin',
    name: 'Test spin',
    pricing: { flat: { price_usd: 0.0012, max_tokens: 0 } },
    timeoutMs: 3000,
  },
  {
    ...base,
    slug: 'test-hang',
    name: 'Test hang',
    pricing: { flat: { price_usd: 0.0013, max_tokens: 0 } },
    timeoutMs: 60_000,
  },
  {
    ...base,
    slug: 'test-bloat',
    name: 'Test bloat',
    pricing: { flat: { price_usd: 0.0014, max_tokens: 0 } },
    timeoutMs: 60_000,
  },
]

const module = new URL('./hostile-handler.ts', import.meta.url).href

/** The generated registry plus the hostile services. */
export const withHostile = (): RegistryEntry[] => [
  ...entries,
  ...hostileManifests.map((manifest) => ({
    folder: manifest.slug,
    manifest,
    module,
    // Never called in-process: the pool loads `module` in a worker.
    handler: () => {
      throw new Error('runs in the worker pool')
    },
  })),
]
