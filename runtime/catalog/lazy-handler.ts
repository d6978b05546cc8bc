import type { AnyHandler } from '../sdk'

/**
 * A handler whose module loads on its first call (then is called directly). Keeps boot to the manifests: heavy
 * libraries of a service are only paid for when that service is used. `registryEntries` (runtime/catalog/registry.ts) wraps
 * every handler of the generated index in it.
 */
export function lazy(load: () => Promise<{ default: unknown }>): AnyHandler {
  let fn: ((input: never, ctx: never) => unknown) | undefined
  let pending: Promise<void> | undefined
  return (async (input: never, ctx: never) => {
    if (!fn)
      await (pending ??= load().then((m) => {
        fn = m.default as typeof fn
      }))
    return fn!(input, ctx)
  }) as AnyHandler
}
