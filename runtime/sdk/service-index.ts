import type { Attribution } from './context'
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

/**
 * A live-data upstream as the services declare it (services/upstreams.ts): its default base URL, time budget, terms
 * and attribution. Configuration overrides the url, key and timeout (registry.yaml `upstreams.<name>`, env
 * `UPSTREAM_<NAME>_URL` / `UPSTREAM_<NAME>_KEY`).
 */
export interface UpstreamDefault {
  url: string
  timeoutMs: number
  /** Usage terms, rate limits and what a commercial deployment must change. */
  terms: string
  attribution: Attribution
  /** Query parameter that carries `UPSTREAM_<NAME>_KEY`. */
  keyParam?: string
  /** Header that carries `UPSTREAM_<NAME>_KEY` (used instead of keyParam when set). */
  keyHeader?: string
}
