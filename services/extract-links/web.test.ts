/** extract-links against a loopback web site through the real safe fetcher (test/support/web-site.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { typed } from '../../test/net/support'
import { loopbackSite, conforms } from '../../test/support/web-site'

const extractLinks = typed(manifest, handler)
const { site, ctx } = loopbackSite()

describe('extract-links', () => {
  test('absolute, de-duplicated, fragments removed, non-http skipped, external flagged', async () => {
    const out = await extractLinks({ url: `${site.url}/post` }, ctx())
    conforms(manifest.output, out)
    const urls = out.links.map((l) => l.url)
    expect(urls).toEqual([
      `${site.url}/`,
      `${site.url}/about`,
      'https://twitter.com/example',
      `${site.url}/posts/sharding`,
      'https://docs.example.org/ci/sharding',
      `${site.url}/cdn-cgi/l/email-protection`,
      'https://ads.example.net/click?id=1',
      `${site.url}/privacy`,
    ])
    expect(out).toMatchObject({ total: 8, count: 8, truncated: false, internal_count: 5, external_count: 3 })
    expect(out.links[2]).toEqual({
      url: 'https://twitter.com/example',
      text: 'Twitter',
      rel: ['nofollow', 'noopener'],
      external: true,
      nofollow: true,
    })
  })
  test('external_only and max_links', async () => {
    const out = await extractLinks({ url: `${site.url}/post`, external_only: true, max_links: 2 }, ctx())
    expect(out.links.map((l) => l.url)).toEqual(['https://twitter.com/example', 'https://docs.example.org/ci/sharding'])
    expect(out).toMatchObject({ total: 3, count: 2, truncated: true })
  })
})
