import type { CatalogService } from '../catalog/index'
import type { RegistryEntry } from '../catalog/registry-types'
import type { AnyHandler } from '../sdk'
import { isIndexed, loaderOf } from '../catalog/registry'
import type { HandlerPool, Target } from './pool'

export { HandlerPool } from './pool'
export { InlineRunner } from './inline'

/**
 * The catalog with its handlers moved into the pool: a service of the generated index runs there by slug, an
 * entry with a `module` from that module. Only a handler given as an in-process function (tests that share state
 * with their service) stays on the main thread. A linear service (`linear: true`) runs a call with a small input on
 * the main thread instead (runtime/isolate/inline.ts), the rest in the pool.
 */
export function isolated(
  services: CatalogService[],
  entries: readonly RegistryEntry[],
  pool: HandlerPool,
): CatalogService[] {
  const bySlug = new Map(entries.map((e) => [e.manifest?.slug, e]))
  return services.map((s) => {
    const e = bySlug.get(s.slug)
    if (!s.handler || !e || !(e.module || isIndexed(e))) return s
    const target: Target = { slug: s.slug, module: e.module, upstreams: s.manifest.upstreams ?? [] }
    const load = e.module ? () => import(e.module!) : loaderOf(e)
    if (s.manifest.linear && load) {
      const inline = { ...target, load }
      const handler: AnyHandler = (input, ctx) =>
        pool.inline.run(inline, input, ctx, () => pool.run(target, input, ctx))
      return { ...s, handler }
    }
    const handler: AnyHandler = (input, ctx) => pool.run(target, input, ctx)
    return { ...s, handler }
  })
}
