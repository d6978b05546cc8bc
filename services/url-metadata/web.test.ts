/** url-metadata against a loopback web site through the real safe fetcher (test/support/web-site.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { typed } from '../../test/net/support'
import { loopbackSite, conforms } from '../../test/support/web-site'

const urlMetadata = typed(manifest, handler)
const { site, ctx } = loopbackSite()

describe('url-metadata', () => {
  test('title, description, canonical, favicon, OpenGraph, Twitter, feeds (all absolute)', async () => {
    const out = await urlMetadata({ url: `${site.url}/post` }, ctx())
    conforms(manifest.output, out)
    expect(out).toMatchObject({
      status: 200,
      title: 'How We Cut Our Build Time in Half | Example Engineering',
      description: 'A walk through the caching changes that halved our CI time.',
      canonical: `${site.url}/posts/build-time`,
      favicon: `${site.url}/static/favicon-32.png`,
      lang: 'en',
      site_name: 'Example Engineering',
      image: `${site.url}/img/cover.jpg`,
      type: 'article',
      author: 'Jane Doe',
      published_time: '2024-05-02T09:00:00Z',
      keywords: ['ci', 'caching', 'build systems'],
      theme_color: '#0a0a0a',
      feeds: [{ url: `${site.url}/feed.xml`, type: 'application/rss+xml', title: 'Example Engineering feed' }],
      twitter: { 'twitter:card': 'summary_large_image', 'twitter:site': '@example' },
    })
    expect(out.open_graph['og:title']).toBe('How We Cut Our Build Time in Half')
    expect(Object.keys(out.open_graph)).toHaveLength(6)
  })
  test('no icon link: /favicon.ico of the final URL', async () => {
    const out = await urlMetadata({ url: `${site.url}/no-links` }, ctx())
    expect(out.favicon).toBe(`${site.url}/favicon.ico`)
    expect(out.title).toBeNull()
  })
})
