import type { AnyHandler, ServiceManifest } from './sdk'

/** One service folder as the generated index lists it. `handler: null` means not built yet (501). */
export interface RegistryEntry {
  folder: string
  manifest: ServiceManifest
  handler: AnyHandler | null
}
