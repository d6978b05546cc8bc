import { defineService, flat, t } from '../../runtime/sdk'
import { urlField } from '../_lib/fields'

const source = t.Union([t.Literal('mailto'), t.Literal('text'), t.Literal('cloudflare'), t.Literal('tel')])

export default defineService({
  slug: 'extract-emails',
  name: 'Extract emails and phones',
  description:
    'Fetches a public web page (SSRF-safe, 3 MiB and 10 s caps) and lists the email addresses (mailto: links, visible text including "name [at] domain [dot] com", Cloudflare-obfuscated data-cfemail) and phone numbers (tel: links and visible text, found and validated with libphonenumber\'s full metadata; numbers without a + country code are found only when `default_country` is given) it contains, de-duplicated, with E.164 form, country and line type.',
  category: 'web',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  needs: ['fetch'],
  timeoutMs: 15_000,
  input: t.Object(
    {
      url: urlField('The public http(s) URL of the page (at most 2048 characters).'),
      include_phones: t.Optional(t.Boolean({ default: true, description: 'Also look for phone numbers.' })),
      default_country: t.Optional(
        t.String({
          pattern: '^[A-Za-z]{2}$',
          maxLength: 2,
          description: 'ISO 3166-1 alpha-2 country for numbers written without +country code (e.g. US, GB).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { link: 'url', phones: 'include_phones' } },
  output: t.Object({
    url: t.String(),
    final_url: t.String({ description: 'The URL after redirects.' }),
    email_count: t.Integer(),
    phone_count: t.Integer(),
    emails: t.Array(
      t.Object({
        email: t.String({ description: 'Address with the domain lower-cased (at most 200 are returned).' }),
        sources: t.Array(source, { description: 'Where it was found: mailto, text or cloudflare.' }),
        count: t.Integer({ description: 'Occurrences.' }),
      }),
    ),
    phones: t.Array(
      t.Object({
        number: t.String({ description: 'As written on the page (first occurrence).' }),
        e164: t.Union([t.String(), t.Null()], { description: 'E.164 form; null for a tel: link that does not parse.' }),
        international: t.Union([t.String(), t.Null()], { description: 'International format, e.g. +1 650 253 0000.' }),
        country: t.Union([t.String(), t.Null()], { description: 'ISO 3166-1 alpha-2 region of the number.' }),
        type: t.Union([t.String(), t.Null()], {
          description: 'libphonenumber type: MOBILE, FIXED_LINE, FIXED_LINE_OR_MOBILE, TOLL_FREE, VOIP, ...',
        }),
        valid: t.Boolean({ description: 'Valid for its region per libphonenumber metadata.' }),
        sources: t.Array(source, { description: 'tel or text.' }),
      }),
    ),
  }),
  examples: [
    {
      name: 'Contact page',
      input: { url: 'https://example.com/contact' },
      output: {
        url: 'https://example.com/contact',
        final_url: 'https://example.com/contact',
        email_count: 1,
        phone_count: 1,
        emails: [{ email: 'press@example.com', sources: ['mailto', 'text'], count: 2 }],
        phones: [
          {
            number: '+1 (650) 253-0000',
            e164: '+16502530000',
            international: '+1 650 253 0000',
            country: 'US',
            type: 'FIXED_LINE_OR_MOBILE',
            valid: true,
            sources: ['text'],
          },
        ],
      },
    },
  ],
})
