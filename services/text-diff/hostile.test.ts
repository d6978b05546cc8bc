/**
 * text-diff is bounded on texts of many repeated, distinct lines and characters: difflib's matcher (the fallback
 * after Myers' 1 s and the similarity) is up to len(a) x len(b) there (50,000 characters took 11 s); it now has a
 * step budget, then one whole-text hunk and difflib's quick_ratio().
 */
import { hostileGrowth } from '../../test/support/large-inputs'

/** `chars` characters: lines of one of 400 CJK characters each, pseudo-random from `seed`. */
function repeatedDistinct(chars: number, seed: number): string {
  let s = seed
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648
  return Array.from({ length: chars / 2 }, () => `${String.fromCharCode(0x4e00 + Math.floor(next() * 400))}\n`).join('')
}

hostileGrowth(
  'text-diff',
  'lines of 400 distinct values',
  (n) => ({ a: repeatedDistinct(n, 1), b: repeatedDistinct(n, 2) }),
  25_000,
  {
    outcomes: ['ok'],
  },
)
