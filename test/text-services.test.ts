/**
 * Cross-service guards for the text utilities: the pattern-based services stay linear on hostile inputs at their
 * size caps (no regex backtracking blow-up). Example outputs are checked for every service in test/catalog.test.ts;
 * per-service tests live in services/<slug>/.
 */
import { expect, test } from 'bun:test'
import { entries } from '../runtime/registry.gen'
import { testContext } from '../runtime/sdk'
import { prepareInput } from '../runtime/validate'

const bySlug = new Map(entries.map((e) => [e.folder, e]))
const run = async (slug: string, input: unknown, now = new Date('2026-01-01T00:00:00Z')) => {
  const e = bySlug.get(slug)!
  return JSON.parse(JSON.stringify(await e.handler!(prepareInput(e.manifest.input, input) as never, testContext({ service: slug, tier: 'flat', now: () => now }))))
}

const N = 490_000
const HOSTILE = ['1-'.repeat(N / 2), '1.'.repeat(N / 2), 'a.'.repeat(N / 2) + '@', '0'.repeat(N), 'http://' + 'a'.repeat(N), 'ab@'.repeat(N / 3), '1 '.repeat(N / 2), ':'.repeat(N), 'ffff:'.repeat(N / 5), '$1,111'.repeat(N / 6), '#'.repeat(N), '4111 '.repeat(N / 5), 'http://a.b #c @d 1.2.3.4 x@y.io '.repeat(N / 32)]

test('pii-redact and entity-extract are linear on hostile inputs', async () => {
  for (const text of HOSTILE) {
    for (const slug of ['pii-redact', 'entity-extract']) {
      const t = performance.now()
      await run(slug, { text })
      expect({ slug, input: text.slice(0, 12), slow: performance.now() - t > 2000 }).toEqual({ slug, input: text.slice(0, 12), slow: false })
    }
  }
}, 120_000)

test('text services handle their largest inputs quickly', async () => {
  const prose = 'Dr. Smith met Mr. Lee in the U.S. on Jan. 5. They talked for 3.5 hours! Was it useful? Yes. '
  const cases: Array<[string, unknown]> = [
    ['text-stats', { text: prose.repeat(Math.floor(1_000_000 / prose.length)) }],
    ['readability-score', { text: prose.repeat(Math.floor(200_000 / prose.length)) }],
    ['keyword-frequency', { text: prose.repeat(Math.floor(500_000 / prose.length)) }],
    ['case-convert', { text: 'parseHTTPResponse_value-x '.repeat(3800), to: 'snake' }],
    ['llm-token-estimate', { text: prose.repeat(Math.floor(2_000_000 / prose.length)) }],
    ['text-diff', { a: 'line one\nline two\n'.repeat(2700), b: 'line one\nline 2\n'.repeat(3000) }],
  ]
  for (const [slug, input] of cases) {
    const t = performance.now()
    await run(slug, input)
    expect({ slug, slow: performance.now() - t > 3000 }).toEqual({ slug, slow: false })
  }
}, 120_000)
