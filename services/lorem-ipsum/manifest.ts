import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'lorem-ipsum',
  name: 'Lorem ipsum',
  description:
    'Placeholder text from the classic Lorem ipsum vocabulary, by paragraphs (default 1, max 50), sentences (max 500) or words (max 5,000): give exactly one of the three counts. Sentences have 6-14 words (in words mode a remainder under 4 words joins the last sentence). Deterministic for a given seed (default 1, mulberry32): the same input always gives the same text. Starts with "Lorem ipsum dolor sit amet" unless start_with_lorem is false.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      paragraphs: t.Optional(
        t.Integer({ minimum: 1, maximum: 50, description: 'Number of paragraphs (4-7 sentences each).' }),
      ),
      sentences: t.Optional(
        t.Integer({ minimum: 1, maximum: 500, description: 'Number of sentences (6-14 words each).' }),
      ),
      words: t.Optional(t.Integer({ minimum: 1, maximum: 5000, description: 'Number of words.' })),
      seed: t.Optional(
        t.Integer({ minimum: 0, maximum: 2 ** 32 - 1, default: 1, description: 'PRNG seed (mulberry32).' }),
      ),
      start_with_lorem: t.Optional(
        t.Boolean({ default: true, description: 'Begin with "Lorem ipsum dolor sit amet".' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { paragraph_count: 'paragraphs', sentence_count: 'sentences', word_count: 'words' } },
  output: t.Object({
    text: t.String({ description: 'Paragraphs separated by a blank line.' }),
    paragraphs: t.Array(t.String()),
    counts: t.Object({ paragraphs: t.Integer(), sentences: t.Integer(), words: t.Integer() }),
  }),
  examples: [
    {
      name: 'Five words',
      input: { words: 5 },
      output: {
        text: 'Lorem ipsum dolor sit amet.',
        paragraphs: ['Lorem ipsum dolor sit amet.'],
        counts: { paragraphs: 1, sentences: 1, words: 5 },
      },
    },
  ],
})
