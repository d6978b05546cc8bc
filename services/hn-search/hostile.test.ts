/** The live-data family: an upstream answer of many hits with long HTML comments is processed in linear time. */
import { hostileGrowth } from '../../test/support/large-inputs'

const hit = (i: number) => ({
  _tags: ['comment', 'author_x', 'story_1'],
  author: 'x',
  comment_text: '<p>a <i>b</i> &amp; '.repeat(200),
  created_at: '2024-01-01T00:00:00Z',
  created_at_i: 1704067200,
  objectID: String(i),
  story_id: 1,
  points: null,
  num_comments: null,
})

hostileGrowth('hn-search', 'hits with long HTML comments', () => ({ query: 'bun', hits_per_page: 50 }), 25, {
  fixture: (n) => ({
    upstream: {
      'hn-algolia': {
        body: { hits: Array.from({ length: n }, (_, i) => hit(i)), nbHits: n, page: 0, nbPages: 1, hitsPerPage: n },
      },
    },
  }),
  outcomes: ['ok'],
  reps: 5,
})
