import { defineService, flat, t } from '../../runtime/sdk'

const idx = (d: string) => t.Number({ description: d })

export default defineService({
  slug: 'readability-score',
  name: 'Readability scores',
  description: 'The six classic readability indices of an English text with the counts behind them. Words are runs of letters/digits/apostrophes; sentences end in . ! ? (not after common abbreviations or inside decimals); syllables come from the `syllable` package (words/syllable); complex words have 3+ syllables; characters are letters and digits. Formulas: Flesch Reading Ease 206.835 − 1.015·W/S − 84.6·Syl/W; Flesch-Kincaid grade 0.39·W/S + 11.8·Syl/W − 15.59; Gunning Fog 0.4·(W/S + 100·Complex/W); SMOG 1.043·√(Poly·30/S) + 3.1291; ARI 4.71·Chars/W + 0.5·W/S − 21.43; Coleman-Liau 0.0588·L − 0.296·S100 − 15.8 (L, S100 per 100 words). Values are unrounded; text up to 200,000 characters.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({ text: t.String({ minLength: 1, maxLength: 200_000, description: 'English text.' }) }, { additionalProperties: true }),
  output: t.Object({
    counts: t.Object({ sentences: t.Integer(), words: t.Integer(), syllables: t.Integer(), complex_words: t.Integer(), characters: t.Integer() }),
    reading_time_seconds: t.Integer({ description: 'At 238 words per minute.' }),
    flesch_reading_ease: idx('Higher is easier (90-100 very easy, 0-30 very hard).'),
    flesch_kincaid_grade: idx('US school grade.'),
    gunning_fog: idx('Years of formal education.'),
    smog: idx('Grade; designed for 30+ sentences.'),
    automated_readability_index: idx('Grade.'),
    coleman_liau: idx('Grade.'),
  }),
  examples: [{ name: 'Short text', input: { text: 'The cat sat on the mat.' }, output: { counts: { sentences: 1, words: 6, syllables: 6, complex_words: 0, characters: 17 }, reading_time_seconds: 2, flesch_reading_ease: 116.145, flesch_kincaid_grade: -1.45, gunning_fog: 2.4, smog: 3.1291, automated_readability_index: -4.0317, coleman_liau: -4.7103 } }],
})
