/**
 * Inputs at a text service's size cap, for its own services/<slug>/*.test.ts: hostile strings for the
 * pattern-based services (no regex backtracking blow-up) and plain prose of a given length.
 */
import { afterAll, expect, test } from 'bun:test'
import { serviceRunner } from './fixture-run'

const N = 490_000

/** Strings that make a backtracking regex explode; every pattern-based service must stay linear on them. */
export const HOSTILE_TEXTS = [
  '1-'.repeat(N / 2),
  '1.'.repeat(N / 2),
  'a.'.repeat(N / 2) + '@',
  '0'.repeat(N),
  'http://' + 'a'.repeat(N),
  'ab@'.repeat(N / 3),
  '1 '.repeat(N / 2),
  ':'.repeat(N),
  'ffff:'.repeat(N / 5),
  '$1,111'.repeat(N / 6),
  '#'.repeat(N),
  '4111 '.repeat(N / 5),
  'http://a.b #c @d 1.2.3.4 x@y.io '.repeat(N / 32),
]

const PROSE = 'Dr. Smith met Mr. Lee in the U.S. on Jan. 5. They talked for 3.5 hours! Was it useful? Yes. '
/** Prose of about `chars` characters, with abbreviations, decimals and every sentence end. */
export const prose = (chars: number) => PROSE.repeat(Math.floor(chars / PROSE.length))

/**
 * Declares the "linear on hostile inputs" test of a pattern-based text service: each hostile string at the size cap
 * must finish well under 2 s (a backtracking regex takes minutes on them; this is a blow-up guard, not a benchmark).
 */
export function linearOnHostileInputs(slug: string): void {
  const svc = serviceRunner(slug)
  afterAll(svc.close)
  test('linear on hostile inputs', async () => {
    for (const text of HOSTILE_TEXTS) {
      const t = performance.now()
      const run = await svc.run({ name: 'hostile', input: { text } })
      if (run.error) throw run.error
      expect({ input: text.slice(0, 12), slow: performance.now() - t > 2000 }).toEqual({
        input: text.slice(0, 12),
        slow: false,
      })
    }
  }, 120_000)
}
