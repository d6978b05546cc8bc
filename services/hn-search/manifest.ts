import { defineService, flat, t } from '../../runtime/sdk'
import { attributionSchema } from '../_lib/live-data'

const ns = (description: string) => t.Union([t.String(), t.Null()], { description })
const ni = (description: string) => t.Union([t.Integer(), t.Null()], { description })

export default defineService({
  slug: 'hn-search',
  name: 'Hacker News search',
  description:
    'Searches Hacker News stories and comments through the HN Search API by Algolia, by relevance or by date. `tags` filters with Algolia\'s syntax: story, comment, poll, job, ask_hn, show_hn, front_page, author_<user>, story_<id>; comma = AND, parentheses = OR, e.g. "(story,comment),author_pg". Returns total hits and for each item its id, type, title, URL, HN link, author, points, comment count, creation time and text (HTML stripped). No match is a 404 NOT_FOUND. Cached 2 minutes.',
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  needs: ['upstream'],
  upstreams: ['hn-algolia'],
  input: t.Object(
    {
      query: t.Optional(
        t.String({
          maxLength: 500,
          description: 'Full-text query (at most 500 characters). Optional when tags are given.',
        }),
      ),
      tags: t.Optional(
        t.String({
          maxLength: 200,
          pattern: '^[A-Za-z0-9_,()-]*$',
          description: 'Algolia tag filter, e.g. story, comment, show_hn, author_pg, "(story,poll)".',
        }),
      ),
      sort: t.Optional(
        t.Union([t.Literal('relevance'), t.Literal('date')], {
          default: 'relevance',
          description: 'relevance (default) or date (newest first).',
        }),
      ),
      hits_per_page: t.Optional(
        t.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Results per page (1-50, default 20).' }),
      ),
      page: t.Optional(
        t.Integer({
          minimum: 0,
          maximum: 49,
          default: 0,
          description: 'Page number from 0 (Algolia returns at most 1,000 hits per query).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: { q: 'query', search: 'query', type: 'tags', order: 'sort', sort_by: 'sort' },
    values: { sort: { relevant: 'relevance', newest: 'date', recent: 'date', latest: 'date', time: 'date' } },
  },
  output: t.Object({
    query: t.String(),
    tags: ns('Tag filter used.'),
    sort: t.Union([t.Literal('relevance'), t.Literal('date')]),
    total_hits: t.Integer({ description: 'Matches in the index (nbHits).' }),
    page: t.Integer(),
    pages: t.Integer({ description: 'Pages available (nbPages).' }),
    hits_per_page: t.Integer(),
    count: t.Integer({ description: 'Hits in this page.' }),
    hits: t.Array(
      t.Object({
        id: t.String({ description: 'HN item id (objectID).' }),
        type: t.Union([
          t.Literal('story'),
          t.Literal('comment'),
          t.Literal('poll'),
          t.Literal('pollopt'),
          t.Literal('job'),
          t.Literal('unknown'),
        ]),
        title: ns('Story title; for a comment, the title of its story.'),
        url: ns('Link of the story (null for Ask HN, text posts and comments).'),
        hn_url: t.String({ description: 'https://news.ycombinator.com/item?id=<id>' }),
        author: ns('HN user.'),
        points: ni('Points (stories).'),
        num_comments: ni('Comment count (stories).'),
        created_at: t.String({ description: 'ISO 8601 UTC.' }),
        text: ns('story_text or comment_text, HTML stripped (at most 2000 characters).'),
        story_id: ni('Story a comment belongs to.'),
        parent_id: ni('Parent item of a comment.'),
        tags: t.Array(t.String(), { description: 'Algolia _tags of the item.' }),
      }),
    ),
    attribution: attributionSchema(),
  }),
  examples: [
    {
      name: 'Stories about Bun',
      input: { query: 'bun runtime', tags: 'story', hits_per_page: 1 },
      output: {
        query: 'bun runtime',
        tags: 'story',
        sort: 'relevance',
        total_hits: 412,
        page: 0,
        pages: 50,
        hits_per_page: 1,
        count: 1,
        hits: [
          {
            id: '32523181',
            type: 'story',
            title: 'Bun: a fast all-in-one JavaScript runtime',
            url: 'https://bun.sh',
            hn_url: 'https://news.ycombinator.com/item?id=32523181',
            author: 'jarredsumner',
            points: 1734,
            num_comments: 643,
            created_at: '2022-07-05T15:18:42.000Z',
            text: null,
            story_id: null,
            parent_id: null,
            tags: ['story', 'author_jarredsumner', 'story_32523181'],
          },
        ],
        attribution: {
          source: 'Hacker News Search by Algolia',
          url: 'https://hn.algolia.com/api',
          license: 'Hacker News content, Y Combinator terms',
          terms: 'public API, about 10,000 requests/h',
        },
      },
    },
  ],
})
