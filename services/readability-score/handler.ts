import { syllable } from 'syllable'
import { handlerFor, invalid } from '../../runtime/sdk'
import { sentences } from '../_lib/text'
import manifest from './manifest'

export default handlerFor(manifest, ({ text }) => {
  const words = text.match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? []
  if (!words.length) throw invalid('text', 'has no words')
  const W = words.length
  const S = Math.max(1, sentences(text).length)
  const syl = words.map((w) => Math.max(1, syllable(w)))
  const Syl = syl.reduce((a, b) => a + b, 0)
  const complex = syl.filter((n) => n >= 3).length
  const chars = words.reduce((n, w) => n + (w.match(/[\p{L}\p{N}]/gu)?.length ?? 0), 0)
  const r = (x: number) => Math.round(x * 1e4) / 1e4
  return {
    counts: { sentences: S, words: W, syllables: Syl, complex_words: complex, characters: chars },
    reading_time_seconds: Math.round((W / 238) * 60),
    flesch_reading_ease: r(206.835 - 1.015 * (W / S) - 84.6 * (Syl / W)),
    flesch_kincaid_grade: r(0.39 * (W / S) + 11.8 * (Syl / W) - 15.59),
    gunning_fog: r(0.4 * (W / S + 100 * (complex / W))),
    smog: r(1.043 * Math.sqrt(complex * (30 / S)) + 3.1291),
    automated_readability_index: r(4.71 * (chars / W) + 0.5 * (W / S) - 21.43),
    coleman_liau: r(0.0588 * ((chars / W) * 100) - 0.296 * ((S / W) * 100) - 15.8),
  }
})
