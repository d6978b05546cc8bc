import { defineService, flat, t } from '../../runtime/sdk'

const Match = t.Object({
  match: t.String(), index: t.Integer({ description: 'UTF-16 offset of the match.' }), end: t.Integer(),
  groups: t.Array(t.Union([t.String(), t.Null()]), { description: 'Numbered capture groups (null when a group did not take part).' }),
  group_spans: t.Array(t.Union([t.Tuple([t.Integer(), t.Integer()]), t.Null()])),
  named_groups: t.Record(t.String(), t.Union([t.String(), t.Null()])),
})

export default defineService({
  slug: 'regex-test',
  name: 'Regex tester',
  description: 'Runs a JavaScript (ECMAScript) regular expression against a text: every match with its span, numbered and named capture groups with their spans. Flags: any of g i m s u y (d is always on for spans; v is not supported); without g only the first match is returned. At most 1,000 matches are listed. The pattern runs in an isolated worker with a 500 ms limit, so a catastrophic pattern answers 422 instead of blocking the server.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      pattern: t.String({ minLength: 1, maxLength: 2000, description: 'The regex source, without slashes.' }),
      text: t.String({ maxLength: 200_000, description: 'The text to search.' }),
      flags: t.Optional(t.String({ maxLength: 6, pattern: '^[gimsuy]*$', default: 'g', description: 'Flags (subset of gimsuy, default g).' })),
    },
    { additionalProperties: true },
  ),
  output: t.Object({ pattern: t.String(), flags: t.String(), match_count: t.Integer(), truncated: t.Boolean(), matches: t.Array(Match) }),
  examples: [{ name: 'Emails', input: { pattern: '(?<user>\\w+)@(\\w+)\\.com', text: 'a@b.com c@d.com', flags: 'g' } }],
})
