import { defineService, flat, t } from '../../runtime/sdk'

const Entry = t.Object({
  term: t.String(),
  count: t.Integer(),
  frequency: t.Number({ description: 'count / number of non-stopword tokens' }),
})

export default defineService({
  slug: 'keyword-frequency',
  name: 'Keyword frequency',
  description:
    'Most frequent single words and two-word phrases of a text. Tokens are lower-cased runs of letters, digits and inner apostrophes; English stopwords (the classic 127-word NLTK English list: i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having do does did doing a an the and but if or because as until while of at by for with about against between into through during before after above below to from up down in out on off over under again further then once here there when where why how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now) and 1-character tokens are removed; frequency is count / kept tokens. Sentence breaks for phrases are . ! ? ; :. Phrases are pairs of adjacent kept tokens that were adjacent in the text (no stopword or sentence break between them). Ties are ordered alphabetically. Differs from keywords-extract: exact counts, no model and no ranking by meaning; use keywords-extract for model-ranked keywords, topics and entities.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      text: t.String({ maxLength: 500_000, description: 'The text.' }),
      top_n: t.Optional(
        t.Integer({ minimum: 1, maximum: 200, default: 10, description: 'How many terms of each kind.' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', content: 'text', top: 'top_n', limit: 'top_n', n: 'top_n' } },
  output: t.Object({
    total_tokens: t.Integer(),
    kept_tokens: t.Integer(),
    keywords: t.Array(Entry),
    phrases: t.Array(Entry),
  }),
  examples: [
    {
      name: 'Short',
      input: { text: 'Cats chase mice. Cats sleep.', top_n: 2 },
      output: {
        total_tokens: 5,
        kept_tokens: 5,
        keywords: [
          { term: 'cats', count: 2, frequency: 0.4 },
          { term: 'chase', count: 1, frequency: 0.2 },
        ],
        phrases: [
          { term: 'cats chase', count: 1, frequency: 0.2 },
          { term: 'cats sleep', count: 1, frequency: 0.2 },
        ],
      },
    },
  ],
})
