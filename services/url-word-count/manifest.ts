import { defineService, flat, t } from '../../runtime/sdk'
import { urlField } from '../_lib/fields'

export default defineService({
  slug: 'url-word-count',
  name: 'URL word count',
  description:
    'Fetches a public web page (SSRF-safe, 3 MiB and 10 s caps) and counts the words, characters and sentences of its main content (Mozilla Readability; `scope: "full"` counts all visible body text instead), with reading time at 238 words per minute (Brysbaert 2019) or the given speed. Words are Unicode word segments (UAX #29), so CJK text is counted too.',
  category: 'web',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  needs: ['fetch'],
  timeoutMs: 15_000,
  input: t.Object(
    {
      url: urlField('The public http(s) URL of the page (at most 2048 characters).'),
      scope: t.Optional(
        t.Union([t.Literal('main'), t.Literal('full')], {
          default: 'main',
          description: 'main: the article Readability finds (default); full: all visible text of the body.',
        }),
      ),
      words_per_minute: t.Optional(
        t.Integer({ minimum: 50, maximum: 1000, default: 238, description: 'Reading speed (50-1000, default 238).' }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { link: 'url', wpm: 'words_per_minute' } },
  output: t.Object({
    url: t.String(),
    final_url: t.String({ description: 'The URL after redirects.' }),
    title: t.Union([t.String(), t.Null()]),
    scope: t.Union([t.Literal('main'), t.Literal('full')]),
    extraction: t.Union([t.Literal('readability'), t.Literal('body'), t.Literal('full'), t.Literal('plain-text')], {
      description:
        'What was counted: readability article, body fallback (Readability found no article), full body, or a text/plain page.',
    }),
    word_count: t.Integer(),
    character_count: t.Integer({
      description: 'Characters (Unicode code points) of the counted text, whitespace collapsed.',
    }),
    character_count_no_spaces: t.Integer(),
    sentence_count: t.Integer({
      description: 'Sentences (Intl.Segmenter, sentences without letters or digits skipped).',
    }),
    paragraph_count: t.Integer({ description: 'Blocks separated by blank lines.' }),
    words_per_minute: t.Integer(),
    reading_time_minutes: t.Integer({ description: 'Rounded up; 0 only for an empty page (which is a 422 instead).' }),
    reading_time_seconds: t.Integer(),
  }),
  examples: [
    {
      name: 'Article',
      input: { url: 'https://example.com/post' },
      output: {
        url: 'https://example.com/post',
        final_url: 'https://example.com/post',
        title: 'A post',
        scope: 'main',
        extraction: 'readability',
        word_count: 812,
        character_count: 4870,
        character_count_no_spaces: 4060,
        sentence_count: 41,
        paragraph_count: 12,
        words_per_minute: 238,
        reading_time_minutes: 4,
        reading_time_seconds: 205,
      },
    },
  ],
})
