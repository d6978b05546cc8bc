import { RE2JS } from 're2js'
import { handlerFor, t } from '../../runtime/sdk'
import { askJson, dataBlock } from '../_lib/model-utility'
import manifest from './manifest'

type Flavor = 'javascript' | 're2'

const SYSTEM =
  'You write regular expressions. Produce one pattern for the regex flavor named in the data block (javascript = ECMAScript ' +
  'RegExp syntax; re2 = RE2 syntax, no lookaround or backreferences) that matches what the description asks for, plus flags ' +
  '(letters among i, m, s; javascript may also use g, u, y) and a short explanation. Prefer simple patterns without nested ' +
  'quantifiers. The pattern must find a match in each "must match" example and in none of the "must not match" examples. ' +
  'Give the pattern without slashes or quotes.'

const Answer = t.Object({
  pattern: t.String({ minLength: 1, maxLength: 2_000 }),
  flags: t.String({ maxLength: 6 }),
  explanation: t.String(),
})

function re2Flags(flags: string): number {
  return (
    (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) |
    (flags.includes('m') ? RE2JS.MULTILINE : 0) |
    (flags.includes('s') ? RE2JS.DOTALL : 0)
  )
}

/** Compiles in the flavor (throws when it does not) and runs the examples with RE2 when it can. */
export function checkRegex(pattern: string, flags: string, flavor: Flavor, match: string[], noMatch: string[]) {
  const allowed = flavor === 're2' ? /^[ims]*$/ : /^[gimsuy]*$/
  if (!allowed.test(flags) || new Set(flags).size !== flags.length)
    throw new Error(`invalid flags "${flags}" for ${flavor}`)
  if (flavor === 'javascript') new RegExp(pattern, flags)
  let re: RE2JS | undefined
  try {
    re = RE2JS.compile(pattern, re2Flags(flags))
  } catch (e) {
    if (flavor === 're2') throw e
  }
  const cases = [
    ...match.map((text) => ({ text, expected: true })),
    ...noMatch.map((text) => ({ text, expected: false })),
  ]
  if (!re) return { tested: false, tests: cases.map((c) => ({ ...c, matched: false })) }
  return { tested: true, tests: cases.map((c) => ({ ...c, matched: re!.matcher(c.text).find() })) }
}

export default handlerFor(manifest, async ({ description, flavor = 'javascript', examples = {} }, ctx) => {
  const match = examples.match ?? []
  const noMatch = examples.no_match ?? []
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: dataBlock([
      ['Regex flavor', flavor],
      ['Description', description],
      ['Must match (JSON array)', match.length ? JSON.stringify(match) : ''],
      ['Must not match (JSON array)', noMatch.length ? JSON.stringify(noMatch) : ''],
    ]),
    schema: Answer,
    maxTokens: 1024,
    validate(a) {
      try {
        const res = checkRegex(a.pattern, a.flags, flavor, match, noMatch)
        const wrong = res.tests.filter((x) => res.tested && x.matched !== x.expected)
        return wrong.length
          ? `the pattern gives the wrong result for: ${wrong
              .map((w) => JSON.stringify(w.text))
              .join(', ')
              .slice(0, 300)}`
          : undefined
      } catch (e) {
        return `the pattern does not compile as ${flavor}: ${(e as Error).message.slice(0, 200)}`
      }
    },
  })
  const { pattern, flags, explanation } = r.value
  return {
    pattern,
    flags,
    flavor,
    explanation: explanation.trim(),
    ...checkRegex(pattern, flags, flavor, match, noMatch),
    model: r.model,
    tokens_used: r.tokens_used,
  }
})
