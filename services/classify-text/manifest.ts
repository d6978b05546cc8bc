import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'classify-text',
  name: 'Classify text',
  description:
    'Assigns a text to exactly one of the supplied labels, with a confidence from 0 to 1 and a short reason. `labels` is a ' +
    'comma-separated string or an array (2 to 50 labels, each at most 100 characters). `scores` gives a confidence for every label. ' +
    'Text: at most 20,000 characters.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 30_000,
  input: t.Object(
    {
      text: t.String({ minLength: 1, maxLength: 20_000, description: 'Text to classify (at most 20,000 characters).' }),
      labels: t.Union(
        [
          t.String({ minLength: 1, maxLength: 5_000 }),
          t.Array(t.String({ minLength: 1, maxLength: 100 }), { minItems: 2, maxItems: 50 }),
        ],
        {
          description: 'Candidate labels: comma-separated string or array.',
        },
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', categories: 'labels', classes: 'labels' } },
  output: t.Object({
    label: t.String({ description: 'One of the supplied labels, exactly as given.' }),
    confidence: t.Number({ minimum: 0, maximum: 1 }),
    scores: t.Array(t.Object({ label: t.String(), confidence: t.Number({ minimum: 0, maximum: 1 }) }), {
      description: 'Every label, highest first.',
    }),
    reason: t.String(),
    ...modelFields,
  }),
  examples: [
    {
      name: 'Support ticket',
      input: {
        text: 'I was charged twice for my subscription this month.',
        labels: 'billing, technical, account, other',
      },
      output: {
        label: 'billing',
        confidence: 0.95,
        scores: [
          { label: 'billing', confidence: 0.95 },
          { label: 'account', confidence: 0.03 },
          { label: 'technical', confidence: 0.01 },
          { label: 'other', confidence: 0.01 },
        ],
        reason: 'A duplicate subscription charge is a billing issue.',
        model: 'gpt-4.1-mini',
        tokens_used: 187,
      },
    },
  ],
})
