/** The web-reader services against a loopback site, through the real safe fetcher. */
import { afterAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { issues } from '../../runtime/validate'
import type { ServiceContext } from '../../runtime/sdk'
import readUrlHandler from '../../services/read-url/handler'
import readUrlManifest from '../../services/read-url/manifest'
import urlMetadataHandler from '../../services/url-metadata/handler'
import urlMetadataManifest from '../../services/url-metadata/manifest'
import extractLinksHandler from '../../services/extract-links/handler'
import extractLinksManifest from '../../services/extract-links/manifest'
import extractEmailsHandler, { decodeCfEmail } from '../../services/extract-emails/handler'
import extractEmailsManifest from '../../services/extract-emails/manifest'
import rssParseHandler from '../../services/rss-parse/handler'
import rssParseManifest from '../../services/rss-parse/manifest'
import urlWordCountHandler from '../../services/url-word-count/handler'
import urlWordCountManifest from '../../services/url-word-count/manifest'
import { ctxWith, html, loopbackFetch, serve, serviceError, upstreamFailure, typed } from './support'

const readUrl = typed(readUrlManifest, readUrlHandler)
const urlMetadata = typed(urlMetadataManifest, urlMetadataHandler)
const extractLinks = typed(extractLinksManifest, extractLinksHandler)
const extractEmails = typed(extractEmailsManifest, extractEmailsHandler)
const rssParse = typed(rssParseManifest, rssParseHandler)
const urlWordCount = typed(urlWordCountManifest, urlWordCountHandler)

const fx = (name: string) => readFileSync(join(import.meta.dir, 'fixtures', name), 'utf8')
const ARTICLE = fx('article.html')

const site = serve((_req, url) => {
  switch (url.pathname) {
    case '/post':
      return html(ARTICLE)
    case '/moved':
      return Response.redirect('/post', 301)
    case '/plain':
      return new Response('Just some plain text.\n\nTwo paragraphs here.', { headers: { 'content-type': 'text/plain; charset=utf-8' } })
    case '/empty':
      return html('<html><head><title>Empty</title></head><body><script>render()</script></body></html>')
    case '/short':
      return html('<html><head><title>Short</title></head><body><nav>Menu</nav><p>Only a short note here.</p><footer>Footer</footer></body></html>')
    case '/pdf':
      return new Response('%PDF-1.4', { headers: { 'content-type': 'application/pdf' } })
    case '/gone':
      return html('<h1>Gone</h1>', 410)
    case '/down':
      return html('<h1>Oops</h1>', 503)
    case '/rss':
      return new Response(fx('rss.xml'), { headers: { 'content-type': 'application/rss+xml' } })
    case '/atom':
      return new Response(fx('atom.xml'), { headers: { 'content-type': 'application/atom+xml; charset=utf-8' } })
    case '/rdf':
      return new Response(fx('rdf.xml'), { headers: { 'content-type': 'application/rdf+xml' } })
    case '/not-feed':
      return new Response('<?xml version="1.0"?><note><to>x</to></note>', { headers: { 'content-type': 'application/xml' } })
    case '/broken-xml':
      return new Response('<?xml version="1.0"?><rss><channel><title>x</title></rss>', { headers: { 'content-type': 'application/xml' } })
    case '/bomb':
      return new Response('<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><rss version="2.0"><channel><title>&c;</title><item><title>t</title></item></channel></rss>', { headers: { 'content-type': 'application/xml' } })
    case '/no-links':
      return html('<html><body><p>Nothing to follow.</p></body></html>')
    default:
      return html('<p>root</p>')
  }
})
afterAll(() => site.stop())

const ctx = (): ServiceContext => ctxWith({ fetch: loopbackFetch([site]) })
const conforms = (schema: Parameters<typeof issues>[0], out: unknown) => expect(issues(schema, out)).toEqual([])

describe('read-url', () => {
  test('Readability extraction: title, byline, site, text without scripts or navigation, Markdown, word count', async () => {
    const out = await readUrl({ code: `${site.url}/moved` }, ctx())
    conforms(readUrlManifest.output, out)
    expect(out.url).toBe(`${site.url}/moved`)
    expect(out.final_url).toBe(`${site.url}/post`)
    expect(out.extraction).toBe('readability')
    expect(out.title).toBe('How We Cut Our Build Time in Half')
    expect(out.byline).toBe('Jane Doe')
    expect(out.site_name).toBe('Example Engineering')
    expect(out.lang).toBe('en')
    expect(out.published_time).toBe('2024-05-02T09:00:00Z')
    expect(out.text).toContain('Our continuous integration pipeline used to take twenty minutes')
    expect(out.text).toContain('\n\n')
    expect(out.text).not.toContain('should never appear')
    expect(out.text).not.toContain('Sponsored')
    expect(out.text).not.toContain('Privacy')
    expect(out.markdown).toContain('## Test sharding')
    expect(out.markdown).toContain(`[our sharding notes](${site.url}/posts/sharding#details)`)
    // Python: 200 word-like whitespace tokens in <article>, minus the 8 of the <h1> Readability drops = 192; UAX #29
    // also splits context-switched, content-addressed, 253-0000, platform@example.com and logo@2x.png (+5).
    expect(out.word_count).toBe(197)
    expect(out.reading_time_minutes).toBe(Math.ceil(out.word_count / 238))
  })
  test('plain-text pages are returned as they are', async () => {
    const out = await readUrl({ code: `${site.url}/plain` }, ctx())
    conforms(readUrlManifest.output, out)
    expect(out).toMatchObject({ extraction: 'plain-text', text: 'Just some plain text.\n\nTwo paragraphs here.', word_count: 7, content_type: 'text/plain' })
  })
  test('a short page falls back to the cleaned body and says so', async () => {
    const out = await readUrl({ code: `${site.url}/short` }, ctx())
    expect(out.extraction).toBe('body')
    expect(out.text).toBe('Only a short note here.')
    expect(out.markdown).toBe('Only a short note here.')
  })
  test('a page without text is a 422, not an empty 200', async () => {
    await serviceError(readUrl({ code: `${site.url}/empty` }, ctx()), 422, 'NO_READABLE_CONTENT')
  })
  test('a PDF is a 415', async () => {
    await serviceError(readUrl({ code: `${site.url}/pdf` }, ctx()), 415, 'UNSUPPORTED_MEDIA_TYPE')
  })
  test('target 410 is a 502 (not retryable); 503 is retryable', async () => {
    await upstreamFailure(readUrl({ code: `${site.url}/gone` }, ctx()), 502, 'target', false)
    await upstreamFailure(readUrl({ code: `${site.url}/down` }, ctx()), 502, 'target', true)
  })
  test('bad and refused URLs', async () => {
    await serviceError(readUrl({ code: 'not a url' }, ctx()), 422, 'INVALID_INPUT')
    await serviceError(readUrl({ code: 'file:///etc/passwd' }, ctx()), 422, 'INVALID_INPUT')
    await serviceError(readUrl({ code: 'http://169.254.169.254/latest/meta-data/' }, ctx()), 422, 'URL_NOT_ALLOWED')
  })
})

describe('url-metadata', () => {
  test('title, description, canonical, favicon, OpenGraph, Twitter, feeds (all absolute)', async () => {
    const out = await urlMetadata({ url: `${site.url}/post` }, ctx())
    conforms(urlMetadataManifest.output, out)
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

describe('extract-links', () => {
  test('absolute, de-duplicated, fragments removed, non-http skipped, external flagged', async () => {
    const out = await extractLinks({ url: `${site.url}/post` }, ctx())
    conforms(extractLinksManifest.output, out)
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
    expect(out.links[2]).toEqual({ url: 'https://twitter.com/example', text: 'Twitter', rel: ['nofollow', 'noopener'], external: true, nofollow: true })
  })
  test('external_only and max_links', async () => {
    const out = await extractLinks({ url: `${site.url}/post`, external_only: true, max_links: 2 }, ctx())
    expect(out.links.map((l) => l.url)).toEqual(['https://twitter.com/example', 'https://docs.example.org/ci/sharding'])
    expect(out).toMatchObject({ total: 3, count: 2, truncated: true })
  })
})

describe('extract-emails', () => {
  test('mailto, text, [at]/[dot], Cloudflare; phones from text and tel: with E.164', async () => {
    const out = await extractEmails({ url: `${site.url}/post` }, ctx())
    conforms(extractEmailsManifest.output, out)
    expect(out.emails).toEqual([
      { email: 'platform@example.com', sources: ['mailto', 'text'], count: 2 },
      { email: 'jane@example.com', sources: ['cloudflare'], count: 1 },
      { email: 'press@example.com', sources: ['text'], count: 1 },
    ])
    expect(out.phones.map((p) => [p.e164, p.country, p.valid, p.sources])).toEqual([
      ['+442079460958', 'GB', true, ['tel', 'text']],
      ['+16502530000', 'US', true, ['text']],
    ])
    expect(out.phones[1].number).toBe('+1 (650) 253-0000')
  })
  test('include_phones false; unknown default_country is a 422', async () => {
    const out = await extractEmails({ url: `${site.url}/post`, include_phones: false }, ctx())
    expect(out.phone_count).toBe(0)
    await serviceError(extractEmails({ url: `${site.url}/post`, default_country: 'ZZ' }, ctx()), 422, 'INVALID_INPUT')
  })
  test('Cloudflare decoding', () => {
    expect(decodeCfEmail('543e353a3114312c35392438317a373b39')).toBe('jane@example.com')
  })
})

describe('rss-parse', () => {
  test('RSS 2.0', async () => {
    const out = await rssParse({ url: `${site.url}/rss` }, ctx())
    conforms(rssParseManifest.output, out)
    expect(out.format).toBe('rss')
    expect(out.feed).toEqual({ title: 'Example Engineering', link: 'https://blog.example.com/', description: 'Posts about builds & tooling', language: 'en-us', updated: '2024-05-02T09:30:00.000Z' })
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
    expect(out.items[1]).toMatchObject({ title: 'Relative link & guid only', link: null, id: 'post-42', published: null, author: 'ops@example.com (Ops Team)' })
    expect(out.items[2].link).toBe(`${site.url}/third`)
  })
  test('Atom 1.0 (RFC 4287 example)', async () => {
    const out = await rssParse({ url: `${site.url}/atom`, max_items: 5 }, ctx())
    conforms(rssParseManifest.output, out)
    expect(out.format).toBe('atom')
    expect(out.feed).toEqual({ title: 'Example Feed', link: 'http://example.org/', description: 'A subtitle.', language: 'en', updated: '2003-12-13T18:30:02.000Z' })
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
    expect(out.items[0]).toMatchObject({ title: 'Processing Inclusions with XSLT', author: 'Bob DuCharme', link: 'http://xml.com/pub/2000/08/09/xslt/xslt.html' })
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

describe('url-word-count', () => {
  test('main content (Readability) and full body', async () => {
    const main = await urlWordCount({ url: `${site.url}/post` }, ctx())
    conforms(urlWordCountManifest.output, main)
    const read = await readUrl({ code: `${site.url}/post` }, ctx())
    expect(main.word_count).toBe(read.word_count)
    expect(main.extraction).toBe('readability')
    expect(main.reading_time_minutes).toBe(Math.ceil(main.word_count / 238))
    expect(main.reading_time_seconds).toBe(Math.round((main.word_count / 238) * 60))
    const full = await urlWordCount({ url: `${site.url}/post`, scope: 'full', words_per_minute: 200 }, ctx())
    expect(full.extraction).toBe('full')
    expect(full.word_count).toBeGreaterThan(main.word_count)
    expect(full.words_per_minute).toBe(200)
  })
  test('known counts on a plain-text page', async () => {
    const out = await urlWordCount({ url: `${site.url}/plain` }, ctx())
    expect(out).toMatchObject({ word_count: 7, sentence_count: 2, paragraph_count: 2, character_count: 42, character_count_no_spaces: 36, reading_time_minutes: 1, reading_time_seconds: 2 })
  })
  test('empty page: 422', async () => {
    await serviceError(urlWordCount({ url: `${site.url}/empty` }, ctx()), 422, 'NO_READABLE_CONTENT')
  })
})
