import { defineService, flat, t } from '../../runtime/sdk'
import { urlField } from '../_lib/fields'

const ns = (description: string) => t.Union([t.String(), t.Null()], { description })

export default defineService({
  slug: 'url-metadata',
  name: 'URL metadata',
  description:
    'Fetches a public web page (SSRF-safe: private addresses refused, redirects re-checked, 3 MiB and 10 s caps) and returns its metadata: title, description, canonical URL, favicon, language, site name, preview image, author, keywords, theme colour, RSS/Atom feeds, and every OpenGraph (og:*, article:*) and Twitter card (twitter:*) tag. All URLs are made absolute against the final URL.',
  category: 'web',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  needs: ['fetch'],
  timeoutMs: 15_000,
  input: t.Object(
    { url: urlField('The public http(s) URL of the page (at most 2048 characters).') },
    { additionalProperties: true },
  ),
  aliases: { fields: { link: 'url' } },
  output: t.Object({
    url: t.String({ description: 'The URL as requested (normalised).' }),
    final_url: t.String({ description: 'The URL after redirects.' }),
    status: t.Integer({ description: 'HTTP status of the final answer (always 2xx here).' }),
    title: ns('<title>, else og:title.'),
    description: ns('<meta name=description>, else og:description, else twitter:description.'),
    canonical: ns('<link rel=canonical>, else og:url (absolute).'),
    favicon: t.String({
      description:
        'Best icon link (rel icon / shortcut icon / apple-touch-icon), else /favicon.ico of the final URL (not checked).',
    }),
    lang: ns('<html lang>.'),
    site_name: ns('og:site_name.'),
    image: ns('og:image, else twitter:image (absolute).'),
    type: ns('og:type.'),
    author: ns('<meta name=author>, else article:author.'),
    published_time: ns('article:published_time.'),
    keywords: t.Array(t.String(), { description: '<meta name=keywords>, split on commas (at most 50).' }),
    theme_color: ns('<meta name=theme-color>.'),
    feeds: t.Array(t.Object({ url: t.String(), type: t.String(), title: ns('Feed title.') }), {
      description: 'RSS/Atom feeds announced with <link rel=alternate>.',
    }),
    open_graph: t.Record(t.String(), t.String(), {
      description: 'Every og:* and article:* property (first value of each), keys as written.',
    }),
    twitter: t.Record(t.String(), t.String(), { description: 'Every twitter:* meta tag (first value of each).' }),
  }),
  examples: [
    {
      name: 'Page with OpenGraph',
      input: { url: 'https://example.com/post' },
      output: {
        url: 'https://example.com/post',
        final_url: 'https://example.com/post',
        status: 200,
        title: 'A post',
        description: 'What the post is about.',
        canonical: 'https://example.com/post',
        favicon: 'https://example.com/favicon.png',
        lang: 'en',
        site_name: 'Example',
        image: 'https://example.com/cover.jpg',
        type: 'article',
        author: 'Jane Doe',
        published_time: '2024-05-02T09:00:00Z',
        keywords: ['ci', 'caching'],
        theme_color: '#ffffff',
        feeds: [{ url: 'https://example.com/feed.xml', type: 'application/rss+xml', title: 'Example feed' }],
        open_graph: { 'og:title': 'A post', 'og:type': 'article', 'og:image': 'https://example.com/cover.jpg' },
        twitter: { 'twitter:card': 'summary_large_image' },
      },
    },
  ],
})
