import { lazy } from './lazy-handler'
import type { RegistryEntry } from './registry-types'
import type { ServiceFolder } from '../sdk'

/**
 * The entries made from the generated index, with their handler module's loader: the worker pool finds their handlers
 * by slug (services/handlers.gen.ts); a linear service's handler also loads on the main thread (runtime/isolate/inline.ts).
 */
const fromIndex = new WeakMap<RegistryEntry, ServiceFolder['load']>()

/**
 * The generated index (services/index.gen.ts, handed over by the entry point) as registry entries: each handler
 * wrapped in `lazy`, so its module loads on the first call and boot evaluates only the manifests.
 */
export function registryEntries(folders: readonly ServiceFolder[]): RegistryEntry[] {
  return folders.map((f) => {
    const entry: RegistryEntry = { folder: f.folder, manifest: f.manifest, handler: f.load ? lazy(f.load) : null }
    fromIndex.set(entry, f.load)
    return entry
  })
}

/** Whether `entry` is one `registryEntries` made (not a copy): its handler is in the worker pool's handler index. */
export const isIndexed = (entry: RegistryEntry): boolean => fromIndex.has(entry)

/** The loader of an entry `registryEntries` made (its handler.ts, as a module whose default export is the handler). */
export const loaderOf = (entry: RegistryEntry): ServiceFolder['load'] | undefined => fromIndex.get(entry)
