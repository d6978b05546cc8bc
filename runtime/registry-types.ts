import type { AnyHandler, ServiceManifest } from './sdk'

/** One service folder as the generated index lists it. `handler: null` means not built yet (501). */
export interface RegistryEntry {
  folder: string
  manifest: ServiceManifest
  handler: AnyHandler | null
  /**
   * A module (URL) whose default export is `handler`, for an entry outside the generated index (tests): the worker
   * pool (runtime/isolate) loads it there. Entries of the generated index are found by folder; an entry with neither
   * runs its `handler` on the main thread.
   */
  module?: string
}
