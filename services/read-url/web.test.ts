/** read-url against a loopback web site through the real safe fetcher (test/support/web-site.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
import { serviceError, typed, upstreamFailure } from '../../test/net/support'
import { loopbackSite, conforms } from '../../test/support/web-site'

const readUrl = typed(manifest, handler)
const { site, ctx } = loopbackSite()

describe('read-url', () => {
  test('Readability extraction: title, byline, site, text without scripts or navigation, Markdown, word count', async () => {
    const out = await readUrl({ code: `${site.url}/moved` }, ctx())
    conforms(manifest.output, out)
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
    conforms(manifest.output, out)
    expect(out).toMatchObject({
      extraction: 'plain-text',
      text: 'Just some plain text.\n\nTwo paragraphs here.',
      word_count: 7,
      content_type: 'text/plain',
    })
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
