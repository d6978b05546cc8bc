import { lazy } from './lazy-handler'
import type { RegistryEntry } from './registry-types'
import type { ServiceFolder } from '../sdk'

/** The entries made from the generated index: the worker pool finds their handlers by slug (services/handlers.gen.ts). */
const fromIndex = new WeakSet<RegistryEntry>()

/**
 * The generated index (services/index.gen.ts, handed over by the entry point) as registry entries: each handler
 * wrapped in `lazy`, so its module loads on the first call and boot evaluates only the manifests.
 */
export function registryEntries(folders: readonly ServiceFolder[]): RegistryEntry[] {
  return folders.map((f) => {
    const entry: RegistryEntry = { folder: f.folder, manifest: f.manifest, handler: f.load ? lazy(f.load) : null }
    fromIndex.add(entry)
    return entry
  })
}

/** Whether `entry` is one `registryEntries` made (not a copy): its handler is in the worker pool's handler index. */
export const isIndexed = (entry: RegistryEntry): boolean => fromIndex.has(entry)
