import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

const Example = t.String({ maxLength: 500 })

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'regex-from-text',
  name: 'Regex from text',
  description:
    'A regular expression from a plain-English description. `flavor` is `javascript` (ECMAScript, default) or `re2` (RE2/Go syntax, ' +
    'linear time). The pattern must compile in that flavor and, when `examples` are given, find a match in every `match` string and ' +
    'in no `no_match` string; otherwise the model is asked once more, then 502. Examples are run with the RE2 engine (linear time); ' +
    'patterns RE2 cannot run (lookaround, backreferences) compile but are reported with `tested: false`. Description: at most 2,000 characters; at most 20 examples of each kind.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 30_000,
  input: t.Object(
    {
      description: t.String({ minLength: 1, maxLength: 2_000, description: 'What the pattern should match.' }),
      flavor: t.Optional(t.Union([t.Literal('javascript'), t.Literal('re2')], { default: 'javascript' })),
      examples: t.Optional(
        t.Object(
          {
            match: t.Optional(t.Array(Example, { maxItems: 20 })),
            no_match: t.Optional(t.Array(Example, { maxItems: 20 })),
          },
          { description: 'Strings that must and must not contain a match.' },
        ),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: { text: 'description', prompt: 'description', dialect: 'flavor', engine: 'flavor', language: 'flavor' },
    values: {
      flavor: {
        js: 'javascript',
        ecmascript: 'javascript',
        typescript: 'javascript',
        go: 're2',
        golang: 're2',
        rust: 're2',
      },
    },
  },
  output: t.Object({
    pattern: t.String(),
    flags: t.String({ description: 'Flags among i, m, s (and g, u, y for javascript).' }),
    flavor: t.String(),
    explanation: t.String(),
    tested: t.Boolean({ description: 'Whether the examples were run against the pattern.' }),
    tests: t.Array(t.Object({ text: t.String(), expected: t.Boolean(), matched: t.Boolean() })),
    ...modelFields,
  }),
  examples: [
    {
      name: 'US ZIP code',
      input: {
        description: 'a US ZIP code, 5 digits with optional +4',
        examples: { match: ['12345', '12345-6789'], no_match: ['1234', 'abcde'] },
      },
      output: {
        pattern: '^\\d{5}(?:-\\d{4})?$',
        flags: '',
        flavor: 'javascript',
        explanation: 'Five digits, optionally a hyphen and four digits, anchored.',
        tested: true,
        tests: [
          { text: '12345', expected: true, matched: true },
          { text: '12345-6789', expected: true, matched: true },
          { text: '1234', expected: false, matched: false },
          { text: 'abcde', expected: false, matched: false },
        ],
        model: 'gpt-4.1-mini',
        tokens_used: 190,
      },
    },
  ],
})
