import { describe, expect, test } from 'bun:test'
import { isDeepStrictEqual } from 'node:util'
import { entries } from '../support/entries'
import { testContext } from '../../runtime/sdk'
import { prepareInput } from '../../runtime/input/validate'
import { sentenceCaseProblem } from '../support/names'

/**
 * Catalog rules every manifest follows (a new service is checked the moment its folder exists):
 * slugs, display names, examples that look like real answers, and near-duplicates that say how they differ.
 */
const manifests = entries.map((e) => e.manifest)

describe('slugs', () => {
  test('lower-case kebab, at most 40 characters, equal to the folder name, unique', () => {
    const bad = entries.filter(
      (e) =>
        !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(e.manifest.slug) ||
        e.manifest.slug.length > 40 ||
        e.manifest.slug !== e.folder,
    )
    expect(bad.map((e) => e.folder)).toEqual([])
    expect(new Set(manifests.map((m) => m.slug)).size).toBe(manifests.length)
  })
})

describe('display names', () => {
  test('one case style for every name: Sentence case', () => {
    const bad = manifests.map((m) => [m.slug, m.name, sentenceCaseProblem(m.name)]).filter(([, , p]) => p)
    expect(bad).toEqual([])
  })
  test('the rule itself: Title Case is refused, acronyms and proper names are kept', () => {
    expect(sentenceCaseProblem('Code Review')).toMatch(/Review/)
    expect(sentenceCaseProblem('code review')).toMatch(/capital/)
    expect(sentenceCaseProblem('Code review')).toBeNull()
    expect(sentenceCaseProblem('JSON to CSV')).toBeNull()
    expect(sentenceCaseProblem('RSS/Atom parse')).toBeNull()
    expect(sentenceCaseProblem('Verify an x402 payment')).toBeNull()
  })
  test('names are unique and short', () => {
    expect(new Set(manifests.map((m) => m.name.toLowerCase())).size).toBe(manifests.length)
    expect(manifests.filter((m) => m.name.length > 60).map((m) => m.slug)).toEqual([])
  })
})

describe('examples look like real answers', () => {
  test('a request_id in an example output has the real form req_ + 20 hex digits', () => {
    const ids: Array<[string, unknown]> = []
    for (const m of manifests)
      for (const ex of m.examples ?? []) {
        const out = ex.output as { request_id?: unknown } | undefined
        if (out && typeof out === 'object' && 'request_id' in out) ids.push([m.slug, out.request_id])
      }
    expect(ids.length).toBeGreaterThanOrEqual(10)
    expect(ids.filter(([, id]) => typeof id !== 'string' || !/^req_[0-9a-f]{20}$/.test(id))).toEqual([])
  })
})

/** Example outputs that depend on the clock of the call (not a list to extend for a new service: only for this). */
const CLOCK_DEPENDENT_EXAMPLES = new Set(['ical-generate']) // DTSTAMP is the time of the call

/** Equal, with numbers compared to 6 significant digits (published examples are rounded for reading). */
const sameAnswer = (a: unknown, b: unknown): boolean =>
  typeof a === 'number' && typeof b === 'number'
    ? Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b))
    : Array.isArray(a) && Array.isArray(b)
      ? a.length === b.length && a.every((x, i) => sameAnswer(x, b[i]))
      : a && b && typeof a === 'object' && typeof b === 'object'
        ? isDeepStrictEqual(Object.keys(a).sort(), Object.keys(b).sort()) &&
          Object.keys(a).every((k) => sameAnswer((a as any)[k], (b as any)[k]))
        : isDeepStrictEqual(a, b)

describe('published example outputs are what the handler returns', () => {
  test('every utility that needs no model, fetch or upstream', async () => {
    const wrong: string[] = []
    let checked = 0
    for (const e of entries) {
      if (
        !e.handler ||
        e.manifest.kind !== 'utility' ||
        (e.manifest.needs ?? []).length ||
        CLOCK_DEPENDENT_EXAMPLES.has(e.folder)
      )
        continue
      for (const ex of e.manifest.examples ?? []) {
        if (ex.output === undefined) continue
        const ctx = testContext({ service: e.folder, tier: 'flat', now: () => new Date('2026-01-01T00:00:00Z') })
        const out = JSON.parse(JSON.stringify(await e.handler(prepareInput(e.manifest.input, ex.input) as never, ctx)))
        checked++
        if (!sameAnswer(out, ex.output)) wrong.push(`${e.folder} '${ex.name}': ${JSON.stringify(out).slice(0, 200)}`)
      }
    }
    expect(checked).toBeGreaterThan(50)
    expect(wrong).toEqual([])
  }, 60_000)
})

/** Two slugs are twins when they only differ by -convert/-converter, -calc/-calculator or a plural s. */
const stem = (slug: string) =>
  slug
    .replace(/-converter$/, '-convert')
    .replace(/-calculator$/, '-calc')
    .split('-')
    .map((w) => w.replace(/s$/, ''))
    .join('-')
/** Near-duplicates by meaning (one computes, the other asks a model; one takes text, the other a URL). */
const SEMANTIC_TWINS: Array<[string, string]> = [
  ['keyword-frequency', 'keywords-extract'],
  ['summarize-url', 'summarize-content'],
]

describe('near-duplicate services say how they differ', () => {
  const bySlug = new Map(manifests.map((m) => [m.slug, m]))
  const pairs: Array<[string, string]> = [...SEMANTIC_TWINS]
  const byStem = new Map<string, string[]>()
  for (const m of manifests) byStem.set(stem(m.slug), [...(byStem.get(stem(m.slug)) ?? []), m.slug])
  for (const group of byStem.values()) for (let i = 1; i < group.length; i++) pairs.push([group[0], group[i]])

  test('the naming twins are found (eth-unit-convert and eth-unit-converter)', () => {
    expect(pairs.map((p) => [...p].sort().join(' '))).toContain('eth-unit-convert eth-unit-converter')
  })
  test('each description names its twin and says "Differs from"', () => {
    const bad: string[] = []
    for (const [a, b] of pairs) {
      for (const [x, y] of [
        [a, b],
        [b, a],
      ]) {
        const d = bySlug.get(x)?.description ?? ''
        if (!d.includes(`Differs from ${y}`)) bad.push(`${x} does not say how it differs from ${y}`)
      }
    }
    expect(bad).toEqual([])
  })
})
