/**
 * Text and encoding utilities beyond their fixtures: every published example output is what the handler returns,
 * and the pattern-based services stay linear on hostile inputs at their size caps (no regex backtracking blow-up).
 */
import { expect, test } from 'bun:test'
import { isDeepStrictEqual } from 'node:util'
import { entries } from '../runtime/registry.gen'
import { testContext } from '../runtime/sdk'
import { prepareInput } from '../runtime/validate'
import { unifiedDiff } from '../services/text-diff/handler'

const SLUGS = ['text-stats', 'case-convert', 'text-diff', 'lorem-ipsum', 'readability-score', 'keyword-frequency', 'pii-redact', 'entity-extract', 'llm-token-estimate', 'number-to-words', 'hash-digest', 'base64-hex-codec', 'uuid-generate', 'jwt-decode', 'roman-numeral']
const bySlug = new Map(entries.map((e) => [e.folder, e]))
const run = async (slug: string, input: unknown, now = new Date('2026-01-01T00:00:00Z')) => {
  const e = bySlug.get(slug)!
  return JSON.parse(JSON.stringify(await e.handler!(prepareInput(e.manifest.input, input) as never, testContext({ service: slug, tier: 'flat', now: () => now }))))
}

test('every example output of these services is the handler output', async () => {
  const wrong: string[] = []
  for (const slug of SLUGS) {
    const e = bySlug.get(slug)
    expect(e?.handler).toBeDefined()
    for (const ex of e!.manifest.examples ?? []) {
      if (ex.output === undefined) continue
      const out = await run(slug, ex.input)
      if (!isDeepStrictEqual(out, ex.output)) wrong.push(`${slug} '${ex.name}': ${JSON.stringify(out).slice(0, 200)}`)
    }
  }
  expect(wrong).toEqual([])
})

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

test('text-diff fallback hunks are exactly difflib.unified_diff (plus the no-newline markers)', () => {
  // expected: Python difflib.unified_diff(a.splitlines(True), b.splitlines(True), 'a', 'b', n=n), with
  // "\\ No newline at end of file" after a line that has no newline, as GNU diff writes it
  const cases: Array<[string, string, number, string]> = [
    ['a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n', 'a\nB\nc\nd\ne\nf\ng\nh\nI\nj\nk', 1, '--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -8,3 +8,4 @@\n h\n-i\n+I\n j\n+k\n\\ No newline at end of file\n'],
    ['one\ntwo\nthree', 'zero\none\n2\nthree', 3, '--- a\n+++ b\n@@ -1,3 +1,4 @@\n+zero\n one\n-two\n+2\n three\n\\ No newline at end of file\n'],
  ]
  for (const [a, b, n, want] of cases) {
    const got = unifiedDiff(a, b, n, -1)
    expect(got.algorithm).toBe('difflib')
    expect(got.text).toBe(want)
  }
})

test('text-diff answers unrelated 50,000-character texts within its budget', async () => {
  for (const [a, b] of [['a\n'.repeat(25_000), 'b\n'.repeat(25_000)], ['x\ny\n'.repeat(12_500), 'x\nz\n'.repeat(12_500)]]) {
    const t = performance.now()
    const out = await run('text-diff', { a, b })
    expect(out.algorithm).toBe('difflib')
    expect(performance.now() - t).toBeLessThan(5000)
  }
}, 60_000)
