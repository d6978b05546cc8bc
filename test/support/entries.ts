import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { registryEntries } from '../../runtime/catalog/registry'
import { services } from '../../services/index.gen'

export { categories, upstreams } from '../../services/index.gen'

/**
 * Every service folder as the entry point hands it to boot (runtime/index.ts). One list per test process: the
 * worker pool runs these entries by slug, a copy or an extra entry of a test stays what it is.
 */
export const entries = registryEntries(services)

/** `entries` with service `slug`'s handler budget (`timeoutMs`) set to `ms`: for tests where the budget cuts a call. */
export const withBudget = (slug: string, ms: number): RegistryEntry[] =>
  entries.map((e) => (e.manifest.slug === slug ? { ...e, manifest: { ...e.manifest, timeoutMs: ms } } : e))
