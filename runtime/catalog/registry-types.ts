import type { AnyHandler, ServiceManifest } from '../sdk'

/** One service folder as boot serves it. `handler: null` means not built yet (501). */
export interface RegistryEntry {
  folder: string
  manifest: ServiceManifest
  handler: AnyHandler | null
  /**
   * A module (URL) whose default export is `handler`, for an entry outside the generated index (tests): the worker
   * pool (runtime/isolate) loads it there. Entries made from the generated index (`registryEntries`,
   * runtime/catalog/registry.ts) are found there by folder (services/handlers.gen.ts); any other entry without a module runs
   * its `handler` on the main thread.
   */
  module?: string
}
