import { defineService, flat, t } from '../../runtime/sdk'
import { urlField } from '../_lib/fields'

export default defineService({
  slug: 'extract-links',
  name: 'Extract links',
  description:
    'Fetches a public web page (SSRF-safe, 3 MiB and 10 s caps) and lists its hyperlinks (<a href> and <area href>) as absolute http(s) URLs, resolved against <base href> and the final URL, fragments removed, de-duplicated in page order, with anchor text, rel values and an external flag (host differs from the page host, ignoring a leading www.). `external_only` keeps only external links; mailto:, tel:, javascript: and in-page #anchors are skipped.',
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
      external_only: t.Optional(t.Boolean({ default: false, description: 'Only links to other hosts.' })),
      max_links: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: 2000,
          default: 500,
          description: 'At most this many links are returned (1-2000, default 500).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { link: 'url', external: 'external_only', limit: 'max_links' } },
  output: t.Object({
    url: t.String({ description: 'The URL as requested (normalised).' }),
    final_url: t.String({ description: 'The URL after redirects (links are resolved against it or <base href>).' }),
    external_only: t.Boolean(),
    total: t.Integer({ description: 'Distinct links found that pass the filter.' }),
    count: t.Integer({ description: 'Links returned (at most max_links).' }),
    truncated: t.Boolean({ description: 'True when total > count.' }),
    internal_count: t.Integer({ description: 'Distinct same-host links on the page.' }),
    external_count: t.Integer({ description: 'Distinct other-host links on the page.' }),
    links: t.Array(
      t.Object({
        url: t.String({ description: 'Absolute URL without fragment.' }),
        text: t.String({
          description:
            'Anchor text (whitespace collapsed, at most 300 characters; the img alt or title when the anchor has no text).',
        }),
        rel: t.Array(t.String(), { description: 'rel tokens, e.g. nofollow, noopener, ugc, sponsored.' }),
        external: t.Boolean({ description: 'Host differs from the page host (a leading www. ignored).' }),
        nofollow: t.Boolean(),
      }),
    ),
  }),
  examples: [
    {
      name: 'External links only',
      input: { url: 'https://example.com/', external_only: true },
      output: {
        url: 'https://example.com/',
        final_url: 'https://example.com/',
        external_only: true,
        total: 1,
        count: 1,
        truncated: false,
        internal_count: 3,
        external_count: 1,
        links: [
          {
            url: 'https://www.iana.org/domains/example',
            text: 'More information...',
            rel: [],
            external: true,
            nofollow: false,
          },
        ],
      },
    },
  ],
})
