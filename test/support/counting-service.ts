import { defineService, handlerFor, serviceRequest, t } from '../../runtime/sdk'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'

/**
 * Test-only services that count their handler runs: `test-count` answers at once; `test-slow` waits until the
 * test opens its gate (no sleeps), announcing that it started and that it finished.
 */
export function countingServices() {
  const runs = { count: 0, slow: 0, slowDone: 0, slowAborted: false }
  let started: () => void = () => {}
  let finished: () => void = () => {}
  let open: () => void = () => {}
  const state = {
    runs,
    /** Resolves when the next slow handler has started. */
    started: Promise.resolve(),
    /** Resolves when that slow handler has returned. */
    finished: Promise.resolve(),
    /** Lets the waiting slow handler return. */
    open: () => open(),
    /** Arms the promises for the next slow call. */
    arm() {
      state.started = new Promise<void>((r) => (started = r))
      state.finished = new Promise<void>((r) => (finished = r))
      gate = new Promise<void>((r) => (open = r))
    },
  }
  let gate = Promise.resolve()
  const countManifest = defineService({
    slug: 'test-count',
    name: 'Test count',
    description: 'Echoes the code and counts handler runs (tests only).',
    category: 'text',
    kind: 'utility',
    method: 'POST',
    pricing: { flat: { price_usd: 0.0031, max_tokens: 0 } },
    model: 'none',
    input: serviceRequest(),
    output: t.Object({ echo: t.String(), run: t.Number() }),
    examples: [{ name: 'hello', input: { code: 'hello' } }],
  })
  const slowManifest = defineService({
    ...countManifest,
    slug: 'test-slow',
    name: 'Test slow',
    description: 'Answers only when the test lets it (tests only).',
    pricing: { flat: { price_usd: 0.0027, max_tokens: 0 } },
  })
  const entries: RegistryEntry[] = [
    {
      folder: 'test-count',
      manifest: countManifest,
      handler: handlerFor(countManifest, ({ code }) => ({ echo: code.toUpperCase(), run: ++runs.count })),
    },
    {
      folder: 'test-slow',
      manifest: slowManifest,
      // Ignores its abort signal on purpose: the pipeline must not settle even when a handler runs to the end.
      handler: handlerFor(slowManifest, async ({ code }, ctx) => {
        runs.slow++
        started()
        await gate
        runs.slowAborted = ctx.signal.aborted // its signal, once its caller left
        runs.slowDone++
        finished()
        return { echo: code.toUpperCase(), run: runs.slow }
      }),
    },
  ]
  return { entries, state }
}
