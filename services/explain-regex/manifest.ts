import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'explain-regex',
  name: 'Explain regex',
  description:
    'Plain-English explanation of a regular expression: a summary, a token-by-token breakdown, example strings it matches and does ' +
    'not match, and warnings (catastrophic backtracking, over-broad classes, missing anchors). For the `javascript` flavor (default) ' +
    'the pattern must compile first (422 otherwise); `pcre`, `python`, `re2`, `posix` are explained without compiling. Pattern: at most 2,000 characters.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 30_000,
  input: t.Object(
    {
      pattern: t.String({ minLength: 1, maxLength: 2_000, description: 'The regular expression, without slashes.' }),
      flags: t.Optional(t.String({ maxLength: 8, pattern: '^[dgimsuvy]*$', default: '' })),
      flavor: t.Optional(
        t.Union(
          ['javascript', 'pcre', 'python', 're2', 'posix'].map((x) => t.Literal(x)),
          { default: 'javascript' },
        ),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: { regex: 'pattern', dialect: 'flavor', engine: 'flavor', language: 'flavor' },
    values: {
      flavor: {
        js: 'javascript',
        ecmascript: 'javascript',
        typescript: 'javascript',
        pcre2: 'pcre',
        php: 'pcre',
        perl: 'pcre',
        python3: 'python',
        py: 'python',
        go: 're2',
        golang: 're2',
        rust: 're2',
        posix_ere: 'posix',
        grep: 'posix',
      },
    },
  },
  output: t.Object({
    summary: t.String(),
    parts: t.Array(t.Object({ token: t.String(), meaning: t.String() })),
    matches: t.Array(t.String()),
    non_matches: t.Array(t.String()),
    warnings: t.Array(t.String()),
    ...modelFields,
  }),
  examples: [
    {
      name: 'ISO date',
      input: { pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      output: {
        summary: 'A whole string of the form YYYY-MM-DD (digits only; the ranges are not checked).',
        parts: [
          { token: '^', meaning: 'start of the string' },
          { token: '\\d{4}', meaning: 'four digits' },
          { token: '-', meaning: 'a hyphen' },
          { token: '\\d{2}', meaning: 'two digits' },
          { token: '$', meaning: 'end of the string' },
        ],
        matches: ['2024-01-31'],
        non_matches: ['2024-1-31'],
        warnings: ['Accepts impossible dates such as 2024-99-99.'],
        model: 'gpt-4.1-mini',
        tokens_used: 240,
      },
    },
  ],
})
