import { defineService, flat, t } from '../../runtime/sdk'

const Span = t.Tuple([t.Integer({ minimum: 0 }), t.Integer({ minimum: 0 })], {
  description: '[start, end) in UTF-16 code units.',
})

const Match = t.Object({
  match: t.String({ description: 'The matched text.' }),
  index: t.Integer({
    minimum: 0,
    description: 'Start offset of the match in UTF-16 code units (as JavaScript counts; an emoji counts 2).',
  }),
  end: t.Integer({ minimum: 0, description: 'End offset (exclusive) in UTF-16 code units.' }),
  groups: t.Array(t.Union([t.String(), t.Null()]), {
    description: 'Numbered capture groups 1..n (null when a group did not take part in the match).',
  }),
  group_spans: t.Array(t.Union([Span, t.Null()]), {
    description: 'Span of each numbered group, null when it did not take part.',
  }),
  named_groups: t.Record(t.String(), t.Union([t.String(), t.Null()]), {
    description: 'Named groups (?<name>...) by name; {} when the pattern has none.',
  }),
})

export default defineService({
  slug: 'regex-test',
  name: 'Regex tester',
  description:
    'Runs a JavaScript (ECMAScript 2024) regular expression against a text and lists every match with its span, numbered and named capture groups and their spans. ' +
    'Flags: any of d g i m s u y, each at most once (default "g"; d is always applied internally for spans; v is not supported). Without g only the first match is returned (y anchors it at offset 0). ' +
    'Offsets are UTF-16 code units. Empty matches advance by one character, like String.prototype.matchAll. All matches are counted; at most 1,000 are listed (and at most 1,000,000 characters of match and group text), with truncated: true beyond that. ' +
    'The pattern runs in an isolated worker killed after 500 ms, so a catastrophic pattern such as (a+)+$ answers 422 REGEX_TIMEOUT ("pattern took too long") within a second without slowing other requests. An invalid pattern is a 422 with the engine\'s message.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  timeoutMs: 10_000,
  errors: {
    REGEX_TIMEOUT: { status: 422, description: 'the pattern did not finish within 500 ms (catastrophic backtracking)' },
  },
  input: t.Object(
    {
      pattern: t.String({
        minLength: 1,
        maxLength: 2000,
        description:
          'The regex source, without surrounding slashes (e.g. "(?<user>\\\\w+)@(\\\\w+)\\\\.com"). At most 2,000 characters.',
      }),
      text: t.String({ maxLength: 200_000, description: 'The text to search (at most 200,000 characters).' }),
      flags: t.Optional(
        t.String({
          maxLength: 7,
          pattern: '^[dgimsuy]*$',
          default: 'g',
          description:
            'Flags: any subset of d g i m s u y, each once. Default "g" (all matches); "" returns the first match only.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { regex: 'pattern', input: 'text', string: 'text' } },
  output: t.Object({
    pattern: t.String({ description: 'The pattern as sent.' }),
    flags: t.String({ description: 'The flags as sent (after the default).' }),
    match_count: t.Integer({
      minimum: 0,
      description: 'Number of matches found (all of them, even beyond the listed ones); at most 1 without the g flag.',
    }),
    listed: t.Integer({ minimum: 0, description: 'Number of matches listed in `matches`.' }),
    truncated: t.Boolean({
      description: 'True when match_count exceeds the listed matches (1,000-match or 1,000,000-character cap).',
    }),
    matches: t.Array(Match, { description: 'The matches in order of position.' }),
  }),
  examples: [
    {
      name: 'Emails with a named group',
      input: { pattern: '(?<user>\\w+)@(\\w+)\\.com', text: 'a@b.com, cc@dd.com', flags: 'g' },
      output: {
        pattern: '(?<user>\\w+)@(\\w+)\\.com',
        flags: 'g',
        match_count: 2,
        listed: 2,
        truncated: false,
        matches: [
          {
            match: 'a@b.com',
            index: 0,
            end: 7,
            groups: ['a', 'b'],
            group_spans: [
              [0, 1],
              [2, 3],
            ],
            named_groups: { user: 'a' },
          },
          {
            match: 'cc@dd.com',
            index: 9,
            end: 18,
            groups: ['cc', 'dd'],
            group_spans: [
              [9, 11],
              [12, 14],
            ],
            named_groups: { user: 'cc' },
          },
        ],
      },
    },
  ],
})
