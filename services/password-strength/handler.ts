import type { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { handlerFor } from '../../runtime/sdk'
import manifest from './manifest'

// The dictionaries cost ~35 MB: loaded on the first call, not at boot.
let loading: Promise<ZxcvbnFactory> | undefined
const factory = () =>
  (loading ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]).then(
    ([core, common, en]) => new core.ZxcvbnFactory({ dictionary: { ...common.dictionary, ...en.dictionary }, graphs: common.adjacencyGraphs, translations: en.translations }),
  ))

export default handlerFor(manifest, async ({ password }) => {
  const r = (await factory()).check(password)
  const chars = [...password]
  const classes = {
    lower: /[a-z]/.test(password), upper: /[A-Z]/.test(password), digits: /\d/.test(password),
    symbols: /[!-/:-@[-`{-~ ]/.test(password), other: chars.some((c) => c.codePointAt(0)! > 126 || c.codePointAt(0)! < 32),
  }
  const pool = (classes.lower ? 26 : 0) + (classes.upper ? 26 : 0) + (classes.digits ? 10 : 0) + (classes.symbols ? 33 : 0) + (classes.other ? 100 : 0)
  const times = (r as unknown as { crackTimes: Record<string, { seconds: number; display: string }> }).crackTimes
  return {
    score: r.score, guesses: Number(r.guesses), entropy_bits: Math.round(Math.log2(Number(r.guesses)) * 100) / 100,
    charset_entropy_bits: Math.round(chars.length * Math.log2(Math.max(1, pool)) * 100) / 100,
    length: chars.length, classes,
    crack_times: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, { seconds: v.seconds, display: v.display }])),
    feedback: { warning: r.feedback.warning ?? null, suggestions: r.feedback.suggestions },
  }
})
