import { handlerFor, invalid, t } from '../../runtime/sdk'
import { askJson, dataBlock } from '../_lib/model-utility'
import manifest from './manifest'

const SYSTEM =
  'You explain regular expressions to developers. Given a pattern, its flags and flavor: "summary" says in one or two ' +
  'sentences what it matches; "parts" breaks it into tokens in order, each with its meaning; "matches" and "non_matches" give ' +
  '2-5 short example strings each; "warnings" lists real problems (catastrophic backtracking, over-broad classes, missing ' +
  'anchors, flavor incompatibilities), or is empty.'

const Answer = t.Object({
  summary: t.String(),
  parts: t.Array(t.Object({ token: t.String(), meaning: t.String() }), { maxItems: 200 }),
  matches: t.Array(t.String(), { maxItems: 10 }),
  non_matches: t.Array(t.String(), { maxItems: 10 }),
  warnings: t.Array(t.String(), { maxItems: 20 }),
})

export default handlerFor(manifest, async ({ pattern, flags = '', flavor = 'javascript' }, ctx) => {
  if (flavor === 'javascript') {
    try {
      new RegExp(pattern, flags)
    } catch (e) {
      throw invalid(
        'pattern',
        `does not compile as a JavaScript regular expression: ${(e as Error).message.slice(0, 200)}`,
      )
    }
  }
  const r = await askJson(ctx, {
    system: SYSTEM,
    user: dataBlock([
      ['Flavor', flavor],
      ['Flags', flags],
      ['Pattern', pattern],
    ]),
    schema: Answer,
    maxTokens: 2048,
  })
  return { ...r.value, model: r.model, tokens_used: r.tokens_used }
})
