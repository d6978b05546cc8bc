import { defineService, flat, t } from '../../runtime/sdk'
import { attributionSchema } from '../_lib/live-data'

export const RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'SOA', 'CAA'] as const

export default defineService({
  slug: 'dns-lookup',
  name: 'DNS lookup',
  description:
    'Resolves A, AAAA, MX, TXT, NS, CNAME, SOA or CAA records over DNS-over-HTTPS (Cloudflare 1.1.1.1, JSON API). Returns each answer with TTL, the raw data and a normalised value (address; host name without trailing dot; TXT strings unquoted and joined per RFC 7208; MX exchange with its priority), the DNSSEC-validated flag and the smallest TTL. Answers are cached for their TTL (at most 1 h; negative answers at most 5 min). NXDOMAIN and "no records of this type" are 404 NOT_FOUND; SERVFAIL is a retryable 502. Internationalised names are converted to punycode.',
  category: 'live-data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  needs: ['upstream'],
  upstreams: ['doh'],
  input: t.Object(
    {
      name: t.String({
        minLength: 1,
        maxLength: 253,
        description: 'Domain name, e.g. example.com or _dmarc.example.com (at most 253 characters).',
      }),
      type: t.Optional(
        t.Union(
          RECORD_TYPES.map((x) => t.Literal(x)),
          {
            default: 'A',
            description: 'Record type: A (default), AAAA, MX, TXT, NS, CNAME, SOA or CAA. Lower case is accepted.',
          },
        ),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: { domain: 'name', host: 'name', hostname: 'name', record_type: 'type', rrtype: 'type', record: 'type' },
  },
  output: t.Object({
    name: t.String({ description: 'Name queried (punycode, no trailing dot).' }),
    type: t.Union(RECORD_TYPES.map((x) => t.Literal(x))),
    status: t.Literal('NOERROR'),
    authenticated_data: t.Boolean({ description: 'The resolver validated the answer with DNSSEC (AD flag).' }),
    ttl: t.Integer({ description: 'Smallest TTL of the answers, seconds.' }),
    count: t.Integer(),
    records: t.Array(
      t.Object({
        name: t.String({ description: 'Owner name (no trailing dot).' }),
        type: t.String({ description: 'Record type; a CNAME chain shows CNAME records before the answers.' }),
        ttl: t.Integer(),
        data: t.String({ description: 'Record data as the resolver gives it (presentation format).' }),
        value: t.String({
          description:
            'Normalised: address, host name without trailing dot, TXT text unquoted and joined, MX exchange.',
        }),
        priority: t.Union([t.Integer(), t.Null()], { description: 'MX preference; null for other types.' }),
      }),
    ),
    resolver: t.String({ description: 'DoH endpoint host.' }),
    attribution: attributionSchema(),
  }),
  examples: [
    {
      name: 'MX records',
      input: { name: 'example.com', type: 'MX' },
      output: {
        name: 'example.com',
        type: 'MX',
        status: 'NOERROR',
        authenticated_data: true,
        ttl: 3600,
        count: 1,
        records: [{ name: 'example.com', type: 'MX', ttl: 3600, data: '0 .', value: '', priority: 0 }],
        resolver: 'cloudflare-dns.com',
        attribution: {
          source: 'Cloudflare 1.1.1.1 DNS over HTTPS',
          url: 'https://developers.cloudflare.com/1.1.1.1/privacy/public-dns-resolver/',
          license: 'DNS data (public)',
          terms: 'public resolver, no key',
        },
      },
    },
  ],
})
