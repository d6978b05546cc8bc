/** url-word-count against a loopback web site through the real safe fetcher (test/support/web-site.ts). */
import { describe, expect, test } from 'bun:test'
import handler from './handler'
import manifest from './manifest'
// The sibling service counts the same words: its answer is the reference here.
import readUrlHandler from '../read-url/handler'
import readUrlManifest from '../read-url/manifest'
import { serviceError, typed } from '../../test/net/support'
import { loopbackSite, conforms } from '../../test/support/web-site'

const urlWordCount = typed(manifest, handler)
const readUrl = typed(readUrlManifest, readUrlHandler)
const { site, ctx } = loopbackSite()

describe('url-word-count', () => {
  test('main content (Readability) and full body', async () => {
    const main = await urlWordCount({ url: `${site.url}/post` }, ctx())
    conforms(manifest.output, main)
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
    expect(out).toMatchObject({
      word_count: 7,
      sentence_count: 2,
      paragraph_count: 2,
      character_count: 42,
      character_count_no_spaces: 36,
      reading_time_minutes: 1,
      reading_time_seconds: 2,
    })
  })
  test('empty page: 422', async () => {
    await serviceError(urlWordCount({ url: `${site.url}/empty` }, ctx()), 422, 'NO_READABLE_CONTENT')
  })
})
