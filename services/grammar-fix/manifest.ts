import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'grammar-fix',
  name: 'Grammar fix',
  description:
    'Corrects spelling, grammar and punctuation without changing meaning, tone or language, and lists each change with a reason. ' +
    'Text: at most 12,000 characters.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 45_000,
  input: t.Object(
    {
      text: t.String({ minLength: 1, maxLength: 12_000, description: 'Text to correct (at most 12,000 characters).' }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', content: 'text' } },
  output: t.Object({
    corrected: t.String(),
    changes: t.Array(t.Object({ original: t.String(), corrected: t.String(), reason: t.String() })),
    change_count: t.Integer({ minimum: 0 }),
    ...modelFields,
  }),
  examples: [
    {
      name: 'Agreement and spelling',
      input: { text: 'Their going to the libary tomorow.' },
      output: {
        corrected: "They're going to the library tomorrow.",
        changes: [
          { original: 'Their', corrected: "They're", reason: 'contraction of "they are"' },
          { original: 'libary', corrected: 'library', reason: 'spelling' },
          { original: 'tomorow', corrected: 'tomorrow', reason: 'spelling' },
        ],
        change_count: 3,
        model: 'gpt-4.1-mini',
        tokens_used: 201,
      },
    },
  ],
})
