import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'slugify',
  name: 'Slugify',
  description:
    "Turns text into a URL slug: ASCII (accents folded), lowercase, words joined by hyphens. Same rules as Django's slugify: characters other than letters, digits, underscores and hyphens are dropped.",
  category: 'text',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      text: t.String({ maxLength: 10_000, description: 'Text to slugify (at most 10,000 characters).' }),
      separator: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 1,
          pattern: '^[-_.~]$',
          default: '-',
          description: 'Word separator: one of - _ . ~',
        }),
      ),
      max_length: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: 10_000,
          description: 'Cut the slug to at most this many characters, at a word boundary when possible.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', title: 'text', string: 'text' } },
  output: t.Object({
    slug: t.String({ description: 'The slug; empty when the text has no ASCII letters or digits.' }),
    length: t.Integer(),
  }),
  examples: [{ name: 'Sentence', input: { text: ' Joel is a slug ' }, output: { slug: 'joel-is-a-slug', length: 14 } }],
})
