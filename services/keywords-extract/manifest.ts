import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'keywords-extract',
  name: 'Keywords extract',
  description:
    'Ranked keywords (each with a relevance from 0 to 1, highest first), main topics, named entities with their type (person, ' +
    'organization, location, product, event, date, other) and short lowercase tags for the text. `max_keywords` caps the keyword ' +
    'list (default 10, at most 50). Text: at most 20,000 characters. Differs from keyword-frequency: a model ranks by meaning and ' +
    'adds topics and entities; use keyword-frequency for exact word and phrase counts.',
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
      max_keywords: t.Optional(t.Integer({ minimum: 1, maximum: 50, default: 10 })),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', content: 'text', limit: 'max_keywords', top_n: 'max_keywords' } },
  output: t.Object({
    keywords: t.Array(t.Object({ term: t.String(), relevance: t.Number({ minimum: 0, maximum: 1 }) })),
    topics: t.Array(t.String()),
    entities: t.Array(t.Object({ text: t.String(), type: t.String() })),
    tags: t.Array(t.String()),
    ...modelFields,
  }),
  examples: [
    {
      name: 'News',
      input: { text: 'Apple unveiled the Vision Pro headset at WWDC in Cupertino on June 5, 2023.' },
      output: {
        keywords: [
          { term: 'Vision Pro', relevance: 0.95 },
          { term: 'headset', relevance: 0.8 },
          { term: 'WWDC', relevance: 0.7 },
        ],
        topics: ['consumer technology', 'product launch'],
        entities: [
          { text: 'Apple', type: 'organization' },
          { text: 'Vision Pro', type: 'product' },
          { text: 'WWDC', type: 'event' },
          { text: 'Cupertino', type: 'location' },
          { text: 'June 5, 2023', type: 'date' },
        ],
        tags: ['apple', 'vr', 'ar', 'wwdc'],
        model: 'gpt-4.1-mini',
        tokens_used: 260,
      },
    },
  ],
})
