/** hn-search against its recorded upstream answers on a loopback server (test/support/live-data-recorded.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed } from '../../test/net/support'
import { conforms, recordedUpstreams } from '../../test/support/live-data-recorded'

const hnSearch = typed(manifest, handler)
const { up, ctx, failureForms } = recordedUpstreams()

describe('hn-search', () => {
  test('stories and comments with HN links; HTML stripped', async () => {
    const out = await hnSearch({ query: 'bun', hits_per_page: 2 }, ctx())
    conforms('hn-search', out)
    expect(out).toMatchObject({ total_hits: 412, pages: 50, count: 2, sort: 'relevance' })
    expect(out.hits[0]).toMatchObject({
      id: '32523181',
      type: 'story',
      url: 'https://bun.sh',
      hn_url: 'https://news.ycombinator.com/item?id=32523181',
      points: 1734,
      num_comments: 643,
      text: null,
    })
    expect(out.hits[1]).toMatchObject({
      type: 'comment',
      title: 'Bun: a fast all-in-one JavaScript runtime',
      text: 'Fast & small.\n\nSecond line',
      parent_id: 32523181,
      points: null,
    })
  })
  test('sort=date uses search_by_date', async () => {
    const before = up.hits('/hn/search_by_date')
    await hnSearch({ query: 'bun', sort: 'date' }, ctx())
    expect(up.hits('/hn/search_by_date') - before).toBe(1)
  })
  test('no hits: 404; neither query nor tags: 422', async () => {
    await serviceError(hnSearch({ query: 'zzzqqq' }, ctx()), 404, 'NOT_FOUND')
    await serviceError(hnSearch({}, ctx()), 422, 'INVALID_INPUT')
  })
  test('upstream failure forms', () => failureForms('hn', 'hn-algolia', () => hnSearch({ query: 'failure' }, ctx())))
})
