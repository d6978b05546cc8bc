import { defineService, flat, t } from '../../runtime/sdk'

const TARGETS = [
  'upper',
  'lower',
  'title',
  'sentence',
  'snake',
  'camel',
  'pascal',
  'kebab',
  'constant',
  'snake_case',
  'camelCase',
  'PascalCase',
  'kebab-case',
  'CONSTANT',
  'CONSTANT_CASE',
] as const

export default defineService({
  slug: 'case-convert',
  name: 'Case converter',
  description:
    'Converts text to upper, lower, title (every word capitalised, the rest lower-cased; letters after an apostrophe stay lower-case: "Don\'t"), sentence (all lower-case, then the first letter of the text and of each word after . ! ? upper-cased), snake_case, camelCase, PascalCase, kebab-case or CONSTANT_CASE. For the identifier cases, words are split at spaces, punctuation, underscores, hyphens and camelCase/acronym boundaries (e.g. "parseHTTPResponse" is parse, HTTP, response); accents are kept.',
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      text: t.String({ maxLength: 100_000, description: 'Text to convert.' }),
      to: t.Union(
        TARGETS.map((x) => t.Literal(x)),
        {
          description: 'Target case (the spec spellings snake_case, camelCase, kebab-case, CONSTANT are accepted too).',
        },
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { case: 'to', style: 'to', target: 'to', format: 'to', input: 'text' } },
  output: t.Object({
    to: t.String({ description: 'Normalised target name.' }),
    result: t.String(),
    words: t.Array(t.String(), { description: 'The words found (identifier cases only; else empty).' }),
  }),
  examples: [
    {
      name: 'camelCase',
      input: { text: 'Hello big World', to: 'camel' },
      output: { to: 'camel', result: 'helloBigWorld', words: ['Hello', 'big', 'World'] },
    },
  ],
})
