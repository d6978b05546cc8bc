import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'sentiment-analyze',
  name: 'Sentiment analyze',
  description:
    'Sentiment of a text: `label` positive, negative or neutral; `score` from -1 (most negative) to 1 (most positive), consistent ' +
    'with the label; `magnitude` from 0 to 1 (strength of emotion regardless of direction, high for strongly mixed text); and a short ' +
    '`reason`. Text: at most 20,000 characters.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 30_000,
  input: t.Object(
    {
      text: t.String({ minLength: 1, maxLength: 20_000, description: 'Text to analyse (at most 20,000 characters).' }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', content: 'text' } },
  output: t.Object({
    label: t.Union([t.Literal('positive'), t.Literal('negative'), t.Literal('neutral')]),
    score: t.Number({ minimum: -1, maximum: 1 }),
    magnitude: t.Number({ minimum: 0, maximum: 1 }),
    reason: t.String(),
    ...modelFields,
  }),
  examples: [
    {
      name: 'Review',
      input: { text: 'The battery life is fantastic, but the screen scratches far too easily.' },
      output: {
        label: 'positive',
        score: 0.2,
        magnitude: 0.7,
        reason: 'Strong praise for the battery outweighs a complaint about the screen.',
        model: 'gpt-4.1-mini',
        tokens_used: 164,
      },
    },
  ],
})
