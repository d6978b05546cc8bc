import { defineService, flat, t } from '../../runtime/sdk'

const idx = (d: string) => t.Number({ description: d })

export default defineService({
  slug: 'readability-score',
  name: 'Readability scores',
  description:
    'The six classic readability indices of an English text with the counts behind them. ' +
    'Sentences: a text splits at blank lines, then at ! or ?, or at . followed by whitespace, except after title and Latin abbreviations (Mr., Mrs., Ms., Dr., Prof., St., Mt., Rev., Gen., Col., Capt., Lt., Sgt., Gov., Sen., Rep., Pres., vs., v., cf., e.g., i.e., viz., et al.), initials (J.) and upper-case initialisms (U.S.), before a lower-case word, or after No., Fig., Vol., p./pp., Ch., Sec., Art., Ed., Eq., ca., approx. or a month abbreviation when a number follows; decimals never split. ' +
    "Words: runs of letters and digits with inner apostrophes (don't), decimals (3.5) and dotted initialisms (U.S.) as one word; characters are the letters and digits. " +
    "Syllables come from the `syllable` package (words/syllable 5.0.1), at least 1 per word. Polysyllabic words (SMOG) have 3+ syllables; Gunning's complex words are those minus proper nouns (capitalised, not first in the sentence) and words that reach 3 syllables only through -es, -ed or -ing. " +
    'Formulas: Flesch Reading Ease 206.835 − 1.015·W/S − 84.6·Syl/W; Flesch-Kincaid grade 0.39·W/S + 11.8·Syl/W − 15.59; Gunning Fog 0.4·(W/S + 100·Complex/W); SMOG 1.043·√(Poly·30/S) + 3.1291; ARI 4.71·Chars/W + 0.5·W/S − 21.43; Coleman-Liau 0.0588·L − 0.296·S100 − 15.8 (L, S100 letters and sentences per 100 words). ' +
    'Values rounded to 4 decimals; reading time at 238 words per minute; text up to 200,000 characters.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    { text: t.String({ minLength: 1, maxLength: 200_000, description: 'English text.' }) },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', content: 'text' } },
  output: t.Object({
    counts: t.Object({
      sentences: t.Integer(),
      words: t.Integer(),
      syllables: t.Integer(),
      complex_words: t.Integer({
        description: 'Gunning complex words (3+ syllables, without proper nouns and -es/-ed/-ing inflections).',
      }),
      polysyllabic_words: t.Integer({ description: 'Words of 3+ syllables (SMOG).' }),
      characters: t.Integer({ description: 'Letters and digits in words.' }),
    }),
    reading_time_seconds: t.Integer({ description: 'At 238 words per minute.' }),
    flesch_reading_ease: idx('Higher is easier (90-100 very easy, 0-30 very hard).'),
    flesch_kincaid_grade: idx('US school grade.'),
    gunning_fog: idx('Years of formal education.'),
    smog: idx('Grade; designed for 30+ sentences.'),
    automated_readability_index: idx('Grade.'),
    coleman_liau: idx('Grade.'),
  }),
  examples: [
    {
      name: 'Short text',
      input: { text: 'The cat sat on the mat.' },
      output: {
        counts: { sentences: 1, words: 6, syllables: 6, complex_words: 0, polysyllabic_words: 0, characters: 17 },
        reading_time_seconds: 2,
        flesch_reading_ease: 116.145,
        flesch_kincaid_grade: -1.45,
        gunning_fog: 2.4,
        smog: 3.1291,
        automated_readability_index: -5.085,
        coleman_liau: -4.0733,
      },
    },
  ],
})
