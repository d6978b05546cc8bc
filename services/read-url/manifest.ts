import { defineService, serviceRequest, t, serviceRequestAliases } from '../../runtime/sdk'

const nullableString = (description: string) => t.Union([t.String(), t.Null()], { description })

export default defineService({
  slug: 'read-url',
  name: 'Read URL',
  description:
    'Fetches a public web page (http/https, redirects followed and re-checked, private addresses refused, 3 MiB and 10 s caps) and returns its main content as clean text and Markdown, using Mozilla Readability (the Firefox Reader View algorithm) rather than a tag strip: title, byline, site name, excerpt, language, published time, text, Markdown, word count and the final URL after redirects. Plain-text pages are returned as they are. `code` is the URL; `language`, `context` and `tier` are accepted and ignored (one price).',
  category: 'web',
  kind: 'utility',
  method: 'POST',
  pricing: { standard: { price_usd: 0.005, max_tokens: 0 } },
  model: 'none',
  needs: ['fetch'],
  timeoutMs: 15_000,
  input: serviceRequest('The http(s) URL of the page to read (at most 2048 characters).'),
  aliases: serviceRequestAliases({ url: 'code' }),
  output: t.Object({
    url: t.String({ description: 'The URL as requested (normalised).' }),
    final_url: t.String({ description: 'The URL after redirects.' }),
    title: nullableString('Article title (Readability), else the <title>.'),
    byline: nullableString('Author line, when the page has one.'),
    site_name: nullableString('Site name (og:site_name or Readability).'),
    excerpt: nullableString('Short description or first paragraph.'),
    lang: nullableString('Language of the page (html lang attribute).'),
    published_time: nullableString('Publication time as the page states it (article:published_time, JSON-LD).'),
    content_type: t.String({ description: 'Media type of the page, e.g. text/html.' }),
    extraction: t.Union([t.Literal('readability'), t.Literal('body'), t.Literal('plain-text')], {
      description:
        'readability: main content found by Readability; body: Readability found no article of at least 500 characters, the body without navigation, headers, footers, asides, forms and scripts was used; plain-text: the page is text/plain.',
    }),
    text: t.String({ description: 'Readable text, paragraphs separated by blank lines.' }),
    markdown: t.String({ description: 'The same content as Markdown (links and images absolute).' }),
    word_count: t.Integer({ description: 'Words in text (Unicode word segmentation).' }),
    reading_time_minutes: t.Integer({ description: 'Rounded up at 238 words per minute.' }),
  }),
  examples: [
    {
      name: 'Article',
      input: { code: 'https://example.com/blog/post' },
      output: {
        url: 'https://example.com/blog/post',
        final_url: 'https://example.com/blog/post',
        title: 'How we cut our build time in half',
        byline: 'Jane Doe',
        site_name: 'Example Blog',
        excerpt: 'A walk through the caching changes that halved CI time.',
        lang: 'en',
        published_time: '2024-05-02T09:00:00Z',
        content_type: 'text/html',
        extraction: 'readability',
        text: 'Our CI took 20 minutes...\n\nThe first change was...',
        markdown: '# How we cut our build time in half\n\nOur CI took 20 minutes...',
        word_count: 812,
        reading_time_minutes: 4,
      },
    },
  ],
})
