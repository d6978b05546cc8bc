import type { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { handlerFor } from '../../runtime/sdk'
import manifest from './manifest'

/** zxcvbn analyses at most this many UTF-16 code units (its matching is superlinear: 256 characters could take 0.5 s). */
export const ANALYSED = 100

// The dictionaries cost ~35 MB: loaded on the first call, not at boot.
let loading: Promise<ZxcvbnFactory> | undefined
const factory = () =>
  (loading ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(
    ([core, common, en]) =>
      new core.ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: common.adjacencyGraphs,
        translations: en.translations,
        // 10 l33t substitutions catch the same words as the default 100 at a tenth of the time on symbol-heavy input.
        l33tMaxSubstitutions: 10,
        maxLength: ANALYSED,
      }),
  ))

const round2 = (x: number) => Math.round(x * 100) / 100

export default handlerFor(manifest, async ({ password }) => {
  const r = (await factory()).check(password)
  const chars = [...password]
  const classes = {
    lower: /[a-z]/.test(password),
    upper: /[A-Z]/.test(password),
    digits: /\d/.test(password),
    symbols: /[ -/:-@[-`{-~]/.test(password),
    other: chars.some((c) => c.codePointAt(0)! > 126 || c.codePointAt(0)! < 32),
  }
  const pool =
    (classes.lower ? 26 : 0) +
    (classes.upper ? 26 : 0) +
    (classes.digits ? 10 : 0) +
    (classes.symbols ? 33 : 0) +
    (classes.other ? 100 : 0)
  const t = r.crackTimes
  const ct = (k: keyof typeof t) => ({ seconds: t[k].seconds, display: t[k].display })
  return {
    score: r.score,
    guesses: Number(r.guesses),
    entropy_bits: round2(Math.log2(Number(r.guesses))),
    charset_entropy_bits: round2(chars.length * Math.log2(Math.max(1, pool))),
    charset_pool: pool,
    length: chars.length,
    analysed_length: [...password.substring(0, ANALYSED)].length,
    classes,
    patterns: [
      ...new Set(
        r.sequence.map((m) => (m.pattern === 'dictionary' && (m as { l33t?: boolean }).l33t ? 'l33t' : m.pattern)),
      ),
    ],
    crack_times: {
      online_throttled: ct('onlineThrottlingXPerHour'),
      online_unthrottled: ct('onlineNoThrottlingXPerSecond'),
      offline_slow_hash: ct('offlineSlowHashingXPerSecond'),
      offline_fast_hash: ct('offlineFastHashingXPerSecond'),
    },
    feedback: { warning: r.feedback.warning || null, suggestions: r.feedback.suggestions },
  }
})
