import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'text-stats',
  name: 'Text statistics',
  description:
    'Counts for a text: characters (Unicode code points), characters without whitespace, words (whitespace-separated), sentences (never across a blank line; ending in ! or ?, or in . followed by whitespace unless it closes a title or Latin abbreviation such as Mr., Dr., St., e.g., i.e., vs., an initial, an upper-case initialism such as U.S., No./Fig./Jan. before a number, or the next word is lower-case; the full list is in readability-score; decimals never split), paragraphs (blocks separated by blank lines), lines, average word length (letters and digits per word) and reading time at 238 words per minute (Brysbaert 2019). Up to 1,000,000 characters.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    { text: t.String({ maxLength: 1_000_000, description: 'The text.' }) },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', content: 'text' } },
  output: t.Object({
    characters: t.Integer(),
    characters_no_spaces: t.Integer(),
    words: t.Integer(),
    sentences: t.Integer(),
    paragraphs: t.Integer(),
    lines: t.Integer(),
    average_word_length: t.Number({ description: 'Mean letters+digits per word, 2 decimals.' }),
    reading_time_seconds: t.Integer({ description: 'words / 238 per minute, rounded.' }),
    words_per_minute: t.Integer(),
  }),
  examples: [
    {
      name: 'Two sentences',
      input: { text: 'Hello world. How are you?' },
      output: {
        characters: 25,
        characters_no_spaces: 21,
        words: 5,
        sentences: 2,
        paragraphs: 1,
        lines: 1,
        average_word_length: 3.8,
        reading_time_seconds: 1,
        words_per_minute: 238,
      },
    },
  ],
})
