import { syllable } from 'syllable'
import { handlerFor, invalid } from '../../runtime/sdk'
import { sentences } from '../_lib/text'
import manifest from './manifest'

/** Words: dotted initialisms (U.S., e.g.) or runs of letters/digits joined by inner apostrophes, or by . , between digits (3.5, 1,000). */
const WORD = /(?:\p{L}\.){2,}|[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+|[.,]\p{N}+)*/gu
const LETTER = /[\p{L}\p{N}]/gu
/** Syllables from the `syllable` package; a word with no vowel group (a number, an acronym like "NLP") counts as one. */
const syllables = (w: string) => Math.max(1, syllable(w))

/**
 * Gunning's "complex word": three or more syllables, except proper nouns (capitalised, not the first word of its
 * sentence) and words that reach three syllables only through an -es, -ed or -ing ending.
 */
function gunningComplex(w: string, syl: number, first: boolean): boolean {
  if (syl < 3) return false
  if (!first && /^\p{Lu}/u.test(w)) return false
  const stem = w.match(/^(.*\p{L})(?:es|ed|ing)$/iu)?.[1]
  return !(stem && syllables(stem) < 3)
}

export default handlerFor(manifest, ({ text }) => {
  const sents = sentences(text)
  let W = 0,
    Syl = 0,
    complex = 0,
    poly = 0,
    chars = 0
  for (const s of sents) {
    let first = true
    for (const w of s.match(WORD) ?? []) {
      const n = syllables(w)
      W++
      Syl += n
      chars += w.match(LETTER)?.length ?? 0
      if (n >= 3) poly++
      if (gunningComplex(w, n, first)) complex++
      first = false
    }
  }
  if (!W) throw invalid('text', 'has no words')
  const S = Math.max(1, sents.length)
  const r = (x: number) => Math.round(x * 1e4) / 1e4
  return {
    counts: {
      sentences: S,
      words: W,
      syllables: Syl,
      complex_words: complex,
      polysyllabic_words: poly,
      characters: chars,
    },
    reading_time_seconds: Math.round((W / 238) * 60),
    flesch_reading_ease: r(206.835 - 1.015 * (W / S) - 84.6 * (Syl / W)),
    flesch_kincaid_grade: r(0.39 * (W / S) + 11.8 * (Syl / W) - 15.59),
    gunning_fog: r(0.4 * (W / S + 100 * (complex / W))),
    smog: r(1.043 * Math.sqrt(poly * (30 / S)) + 3.1291),
    automated_readability_index: r(4.71 * (chars / W) + 0.5 * (W / S) - 21.43),
    coleman_liau: r(0.0588 * ((chars / W) * 100) - 0.296 * ((S / W) * 100) - 15.8),
  }
})
