/** rss-parse against a loopback web site through the real safe fetcher (test/support/web-site.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed } from '../../test/net/support'
import { loopbackSite, conforms } from '../../test/support/web-site'

const rssParse = typed(manifest, handler)
const { site, ctx } = loopbackSite()

describe('rss-parse', () => {
  test('RSS 2.0', async () => {
    const out = await rssParse({ url: `${site.url}/rss` }, ctx())
    conforms(manifest.output, out)
    expect(out.format).toBe('rss')
    expect(out.feed).toEqual({
      title: 'Example Engineering',
      link: 'https://blog.example.com/',
      description: 'Posts about builds & tooling',
      language: 'en-us',
      updated: '2024-05-02T09:30:00.000Z',
    })
    expect(out.total_items).toBe(3)
    expect(out.items[0]).toEqual({
      title: 'How We Cut Our Build Time in Half',
      link: 'https://blog.example.com/build-time',
      id: 'https://blog.example.com/build-time',
      published: '2024-05-02T09:00:00.000Z',
      updated: null,
      author: 'Jane Doe',
      summary: 'A walk through the caching changes.',
      content: 'Full text of the post.\n\nSecond paragraph.',
      categories: ['ci', 'caching'],
      enclosures: [{ url: 'https://cdn.example.com/ep1.mp3', type: 'audio/mpeg', length: 12345 }],
    })
    expect(out.items[1]).toMatchObject({
      title: 'Relative link & guid only',
      link: null,
      id: 'post-42',
      published: null,
      author: 'ops@example.com (Ops Team)',
    })
    expect(out.items[2].link).toBe(`${site.url}/third`)
  })
  test('Atom 1.0 (RFC 4287 example)', async () => {
    const out = await rssParse({ url: `${site.url}/atom`, max_items: 5 }, ctx())
    conforms(manifest.output, out)
    expect(out.format).toBe('atom')
    expect(out.feed).toEqual({
      title: 'Example Feed',
      link: 'http://example.org/',
      description: 'A subtitle.',
      language: 'en',
      updated: '2003-12-13T18:30:02.000Z',
    })
    expect(out.items[0]).toMatchObject({
      title: 'Atom-Powered Robots Run Amok',
      link: 'http://example.org/2003/12/13/atom03',
      id: 'urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a',
      published: '2003-12-13T12:29:29.000Z',
      updated: '2003-12-13T18:30:02.000Z',
      author: 'John Doe',
      summary: 'Some text.',
      categories: ['robots'],
      enclosures: [{ url: 'http://example.org/audio/ph34r_my_podcast.mp3', type: 'audio/mpeg', length: 1337 }],
    })
  })
  test('RSS 1.0 (RDF)', async () => {
    const out = await rssParse({ url: `${site.url}/rdf`, max_items: 1 }, ctx())
    expect(out).toMatchObject({ format: 'rdf', total_items: 2, item_count: 1 })
    expect(out.items[0]).toMatchObject({
      title: 'Processing Inclusions with XSLT',
      author: 'Bob DuCharme',
      link: 'http://xml.com/pub/2000/08/09/xslt/xslt.html',
    })
  })
  test('not a feed, broken XML, HTML page: 422 NOT_A_FEED', async () => {
    await serviceError(rssParse({ url: `${site.url}/not-feed` }, ctx()), 422, 'NOT_A_FEED')
    await serviceError(rssParse({ url: `${site.url}/broken-xml` }, ctx()), 422, 'NOT_A_FEED')
    await serviceError(rssParse({ url: `${site.url}/post` }, ctx()), 422, 'NOT_A_FEED')
  })
  test('DTD entities are not expanded (no entity bomb)', async () => {
    const out = await rssParse({ url: `${site.url}/bomb` }, ctx())
    expect(out.feed.title).toBe('&c;')
  })
})
