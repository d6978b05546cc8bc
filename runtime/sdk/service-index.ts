import type { ServiceManifest } from './manifest'

/**
 * One service folder as the generated index (services/index.gen.ts, written by `npm run gen`) lists it. The entry
 * point (runtime/index.ts) hands the index to boot; the runtime never imports services/.
 */
export interface ServiceFolder {
  folder: string
  manifest: ServiceManifest
  /** Loads the folder's handler.ts (a literal `import()`: bundled in the binary); null when it has none yet (501). */
  load: (() => Promise<{ default: unknown }>) | null
}
