import { defineService, flat, t } from '../../runtime/sdk'
import { urlField } from '../_lib/fields'

const ns = (description: string) => t.Union([t.String(), t.Null()], { description })

export default defineService({
  slug: 'rss-parse',
  name: 'RSS/Atom parse',
  description:
    'Fetches a public RSS 2.0, RSS 1.0 (RDF) or Atom 1.0 feed (SSRF-safe, 5 MiB and 10 s caps) and returns the feed fields and its items as JSON: title, link, id/guid, published and updated times normalised to ISO 8601 UTC, author, plain-text summary and content (HTML stripped, capped), categories and enclosures. A document that is not a feed is a 422 NOT_A_FEED; DTD entities are not expanded.',
  category: 'web',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  needs: ['fetch'],
  timeoutMs: 15_000,
  errors: {
    NOT_A_FEED: { status: 422, description: 'the fetched document is not well-formed XML, or not an RSS or Atom feed' },
  },
  input: t.Object(
    {
      url: urlField('The public http(s) URL of the feed (at most 2048 characters).'),
      max_items: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: 200,
          default: 50,
          description: 'Items returned at most (1-200, default 50), in feed order.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { feed: 'url', feed_url: 'url', limit: 'max_items' } },
  output: t.Object({
    url: t.String(),
    final_url: t.String({ description: 'The URL after redirects.' }),
    format: t.Union([t.Literal('rss'), t.Literal('atom'), t.Literal('rdf')], {
      description: 'rss (RSS 0.9x/2.0), atom (Atom 1.0) or rdf (RSS 1.0).',
    }),
    feed: t.Object({
      title: ns('Feed title.'),
      link: ns('Site link (absolute).'),
      description: ns('Channel description / Atom subtitle (plain text).'),
      language: ns('Language code.'),
      updated: ns('lastBuildDate / pubDate / Atom updated / dc:date, ISO 8601 UTC.'),
    }),
    total_items: t.Integer({ description: 'Items in the feed.' }),
    item_count: t.Integer({ description: 'Items returned.' }),
    items: t.Array(
      t.Object({
        title: ns('Item title (plain text).'),
        link: ns('Item link (absolute); Atom: rel=alternate.'),
        id: ns('guid / Atom id.'),
        published: ns('pubDate / Atom published / dc:date, ISO 8601 UTC; null when missing or unparseable.'),
        updated: ns('Atom updated, ISO 8601 UTC.'),
        author: ns('author / dc:creator / Atom author name.'),
        summary: ns('description / Atom summary as plain text (at most 1000 characters).'),
        content: ns('content:encoded / Atom content as plain text (at most 5000 characters).'),
        categories: t.Array(t.String()),
        enclosures: t.Array(
          t.Object({ url: t.String(), type: ns('Media type.'), length: t.Union([t.Integer(), t.Null()]) }),
        ),
      }),
    ),
  }),
  examples: [
    {
      name: 'RSS 2.0 feed',
      input: { url: 'https://example.com/feed.xml', max_items: 1 },
      output: {
        url: 'https://example.com/feed.xml',
        final_url: 'https://example.com/feed.xml',
        format: 'rss',
        feed: {
          title: 'Example blog',
          link: 'https://example.com/',
          description: 'Posts',
          language: 'en',
          updated: '2024-05-02T09:00:00.000Z',
        },
        total_items: 10,
        item_count: 1,
        items: [
          {
            title: 'A post',
            link: 'https://example.com/post',
            id: 'https://example.com/post',
            published: '2024-05-02T09:00:00.000Z',
            updated: null,
            author: 'Jane Doe',
            summary: 'What the post is about.',
            content: null,
            categories: ['ci'],
            enclosures: [],
          },
        ],
      },
    },
  ],
})
