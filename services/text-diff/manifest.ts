import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'text-diff',
  name: 'Text diff',
  description:
    "Compares two texts line by line: a unified diff in the format of GNU `diff -u --label a --label b` (3 lines of context by default, \"\\ No newline at end of file\" markers; hunks from the `diff` package's Myers diff, so on ambiguous edits it may pick a different but equally valid hunk than GNU diff; when Myers needs more than 1 s, as on long unrelated texts, the hunks come from Python difflib's line matcher instead, exactly as difflib.unified_diff groups them, and `algorithm` says which), counts of added and removed lines, and a similarity ratio equal to Python's difflib.SequenceMatcher(None, a, b).ratio() over characters (1.0 = identical). Each text up to 50,000 characters.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      a: t.String({ maxLength: 50_000, description: 'The original text.' }),
      b: t.String({ maxLength: 50_000, description: 'The changed text.' }),
      context: t.Optional(
        t.Integer({ minimum: 0, maximum: 20, default: 3, description: 'Context lines in the unified diff.' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      old: 'a',
      new: 'b',
      before: 'a',
      after: 'b',
      original: 'a',
      modified: 'b',
      left: 'a',
      right: 'b',
      text1: 'a',
      text2: 'b',
    },
  },
  output: t.Object({
    unified_diff: t.String({ description: 'Unified diff of a → b (empty when equal).' }),
    added: t.Integer({ description: 'Lines added.' }),
    removed: t.Integer({ description: 'Lines removed.' }),
    unchanged: t.Integer({ description: 'Lines in common.' }),
    similarity: t.Number({
      description:
        "difflib ratio() over characters, 0-1; when exact matching would exceed its work budget (5,000,000 steps: long texts of many repeated, distinct characters), difflib's quick_ratio() upper bound (see similarity_method).",
    }),
    similarity_method: t.Union([t.Literal('ratio'), t.Literal('quick_ratio')], {
      description: 'How similarity was computed: "ratio" (exact) or "quick_ratio" (upper bound, over the work budget).',
    }),
    equal: t.Boolean(),
    algorithm: t.Union([t.Literal('myers'), t.Literal('difflib'), t.Literal('whole')], {
      description:
        'Which line matcher produced the hunks: the diff package (Myers), difflib when Myers ran out of its 1 s budget, or "whole" (one hunk replacing every line: correct, not minimal) when difflib would exceed its work budget too.',
    }),
  }),
  examples: [
    {
      name: 'One line changed',
      input: { a: 'one\ntwo\nthree', b: 'one\n2\nthree' },
      output: {
        unified_diff: '--- a\n+++ b\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n\\ No newline at end of file\n',
        added: 1,
        removed: 1,
        unchanged: 2,
        similarity: 0.833333,
        similarity_method: 'ratio',
        equal: false,
        algorithm: 'myers',
      },
    },
  ],
})
