/** What `lazyApp` forwards to: an Elysia app (or anything with its `handle`). */
interface Handles {
  handle(request: Request): Response | Promise<Response>
}

/**
 * A set of routes whose modules load, and whose app is built, on the first request that reaches them (then every
 * request is handed straight to that app). Keeps boot to what every deployment needs; the loader's `import()`
 * specifiers must be literal so `bun build --compile` still bundles them into the single binary. A failed build is
 * retried by the next request.
 */
export function lazyApp(build: () => Promise<Handles>): (request: Request) => Promise<Response> {
  let app: Promise<Handles> | undefined
  return async (request) => {
    const built = await (app ??= build().catch((e) => {
      app = undefined
      throw e
    }))
    return built.handle(request)
  }
}
