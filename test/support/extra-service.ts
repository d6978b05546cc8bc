import { defineService, handlerFor, invalid, serviceRequest, t } from '../../runtime/sdk'
import type { RegistryEntry } from '../../runtime/registry-types'
import { entries } from '../../runtime/registry.gen'

/** A service that exists only in tests: proves that adding one entry publishes it everywhere. */
export const echoManifest = defineService({
  slug: 'test-echo',
  name: 'Test echo',
  description: 'Echoes the code back, upper-cased (tests only).',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: { flat: { price_usd: 0.0042, max_tokens: 0 } },
  model: 'none',
  input: serviceRequest(),
  output: t.Object({ echo: t.String(), tier: t.String() }),
  examples: [{ name: 'hello', input: { code: 'hello' }, output: { echo: 'HELLO', tier: 'flat' } }],
})

export const echoEntry: RegistryEntry = {
  folder: 'test-echo',
  manifest: echoManifest,
  handler: handlerFor(echoManifest, ({ code }, ctx) => {
    if (code === 'fail') throw invalid('code', 'asked to fail')
    if (code === 'crash') throw new Error('boom')
    return { echo: code.toUpperCase(), tier: ctx.tier }
  }),
}

export const withEcho = (): RegistryEntry[] => [...entries, echoEntry]
