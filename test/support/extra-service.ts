import { defineService, handlerFor, invalid, serviceRequest, serviceResponse, t } from '../../runtime/sdk'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { entries } from './entries'

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

export const withEcho = (): RegistryEntry[] => [...entries, echoEntry, explainEntry]

/** A tiered test service shaped like explain-code (ServiceRequest in, ServiceResponse out), with no model. */
export const explainManifest = defineService({
  slug: 'test-explain',
  name: 'Test explain',
  description: 'Explains code with a fixed rule (tests only).',
  category: 'analysis',
  kind: 'tiered',
  method: 'POST',
  pricing: {
    quick: { price_usd: 0.01, max_tokens: 1000 },
    standard: { price_usd: 0.05, max_tokens: 2000 },
    pro: { price_usd: 0.1, max_tokens: 4000 },
  },
  model: 'rule-based',
  input: serviceRequest(),
  output: serviceResponse(),
  examples: [{ name: 'add', input: { code: 'const add = (a, b) => a + b' } }],
})

export const explainEntry: RegistryEntry = {
  folder: 'test-explain',
  manifest: explainManifest,
  handler: handlerFor(
    explainManifest,
    ({ code }, ctx) =>
      ({
        result: `This ${code.split('\n').length}-line snippet was explained at the ${ctx.tier} tier.`,
        model: 'rule-based',
        tokens_used: 7,
      }) as never,
  ),
}
