import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

export const TYPES = [
  'feat',
  'fix',
  'docs',
  'style',
  'refactor',
  'perf',
  'test',
  'build',
  'ci',
  'chore',
  'revert',
] as const

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'commit-message',
  name: 'Commit message',
  description:
    'A Conventional Commits 1.0 message from a diff (unified diff or `git diff` output): type, optional scope, imperative subject ' +
    'of at most 72 characters, a body explaining what and why, and a breaking-change flag. `message` is assembled from those parts ' +
    '(`type(scope)!: subject`, blank line, body, `BREAKING CHANGE:` footer). `context` may add intent or a ticket id. Diff: at most 60,000 characters.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 30_000,
  input: t.Object(
    {
      diff: t.String({ minLength: 1, maxLength: 60_000, description: 'The diff (at most 60,000 characters).' }),
      context: t.Optional(t.String({ maxLength: 2_000, description: 'Why the change was made, ticket ids.' })),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { changes: 'diff', patch: 'diff' } },
  output: t.Object({
    message: t.String(),
    type: t.Union(TYPES.map((x) => t.Literal(x))),
    scope: t.Union([t.String(), t.Null()]),
    subject: t.String({ maxLength: 72 }),
    body: t.String(),
    breaking: t.Boolean(),
    ...modelFields,
  }),
  examples: [
    {
      name: 'Bug fix',
      input: {
        diff: '--- a/src/date.ts\n+++ b/src/date.ts\n@@ -1 +1 @@\n-const days = ms / 86400\n+const days = ms / 86_400_000',
      },
      output: {
        message:
          'fix(date): convert milliseconds to days correctly\n\nDivide by the number of milliseconds in a day instead of seconds.',
        type: 'fix',
        scope: 'date',
        subject: 'convert milliseconds to days correctly',
        body: 'Divide by the number of milliseconds in a day instead of seconds.',
        breaking: false,
        model: 'gpt-4.1-mini',
        tokens_used: 210,
      },
    },
  ],
})
