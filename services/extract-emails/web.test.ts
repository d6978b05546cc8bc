/** extract-emails against a loopback web site through the real safe fetcher (test/support/web-site.ts). */
import { describe, expect, test } from 'bun:test'
import handler, { decodeCfEmail } from './handler'
import manifest from './manifest'
import { serviceError, typed } from '../../test/net/support'
import { loopbackSite, conforms } from '../../test/support/web-site'

const extractEmails = typed(manifest, handler)
const { site, ctx } = loopbackSite()

describe('extract-emails', () => {
  test('mailto, text, [at]/[dot], Cloudflare; phones from text and tel: with E.164', async () => {
    const out = await extractEmails({ url: `${site.url}/post` }, ctx())
    conforms(manifest.output, out)
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
