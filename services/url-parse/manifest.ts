import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'url-parse',
  name: 'URL parser',
  description:
    'Splits an absolute URL into its parts exactly as browsers parse it (WHATWG URL Standard): scheme, username/password presence (never their values), host (lower-cased, IDN hosts in punycode and also in Unicode, IPv4/IPv6 hosts recognised), ' +
    'port (explicit; WHATWG drops a port equal to the scheme default), effective port (explicit, else the scheme default: http 80, https 443, ws 80, wss 443, ftp 21, ssh 22, postgres 5432, ...), normalised path (dot segments resolved) and its %-decoded segments, ' +
    'query parameters (application/x-www-form-urlencoded: + and %-escapes decoded, repeated keys become arrays in order, blank values kept, like Python parse_qs(keep_blank_values=True)), fragment and origin. Never fetches anything. A relative or malformed URL is a 422.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  linear: true,
  input: t.Object(
    {
      url: t.String({
        minLength: 1,
        maxLength: 8192,
        description:
          'An absolute URL such as https://user@example.com:8443/a/b?x=1&x=2#top (surrounding spaces are trimmed; at most 8,192 characters).',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { link: 'url', uri: 'url' } },
  output: t.Object({
    href: t.String({ description: 'The URL serialised by the WHATWG parser (normalised).' }),
    scheme: t.String({ description: 'Lower-case scheme without the colon, e.g. https.' }),
    special: t.Boolean({
      description: 'A WHATWG special scheme (http, https, ws, wss, ftp, file) with hierarchical host rules.',
    }),
    host: t.String({ description: 'Host with an explicit port, IPv6 in brackets; empty when the URL has no host.' }),
    hostname: t.String({ description: 'Host name without port (IPv6 without brackets), ASCII.' }),
    host_type: t.Union(
      [t.Literal('domain'), t.Literal('ipv4'), t.Literal('ipv6'), t.Literal('opaque'), t.Literal('empty')],
      { description: 'Kind of host: domain, ipv4, ipv6, opaque (non-special scheme) or empty.' },
    ),
    hostname_unicode: t.String({ description: 'Host name with punycode labels shown in Unicode.' }),
    port: t.Union([t.Integer(), t.Null()], {
      description: 'Explicit port, or null (also null when it equals the scheme default).',
    }),
    effective_port: t.Union([t.Integer(), t.Null()], {
      description: 'Explicit port, else the scheme default port, else null.',
    }),
    path: t.String({ description: 'Path, %-encoded as serialised.' }),
    path_segments: t.Array(t.String(), {
      description: 'Non-empty path segments, %-decoded; [] for an opaque path such as mailto:.',
    }),
    query: t.String({ description: 'Query string without the ?, as serialised.' }),
    params: t.Record(t.String(), t.Union([t.String(), t.Array(t.String())]), {
      description: 'Decoded query parameters; a key given more than once maps to an array of its values in order.',
    }),
    fragment: t.String({ description: 'Fragment without the #, as serialised (not decoded).' }),
    has_credentials: t.Boolean({ description: 'A username or password is present.' }),
    has_username: t.Boolean({ description: 'A username is present.' }),
    has_password: t.Boolean({ description: 'A password is present.' }),
    origin: t.String({ description: 'scheme://host[:port] for http(s)/ws(s)/ftp, else "null".' }),
  }),
  examples: [
    {
      name: 'Full URL',
      input: { url: 'https://user:pw@example.com:8443/a/b?x=1&x=2&y=hello+world#top' },
      output: {
        href: 'https://user:pw@example.com:8443/a/b?x=1&x=2&y=hello+world#top',
        scheme: 'https',
        special: true,
        host: 'example.com:8443',
        hostname: 'example.com',
        host_type: 'domain',
        hostname_unicode: 'example.com',
        port: 8443,
        effective_port: 8443,
        path: '/a/b',
        path_segments: ['a', 'b'],
        query: 'x=1&x=2&y=hello+world',
        params: { x: ['1', '2'], y: 'hello world' },
        fragment: 'top',
        has_credentials: true,
        has_username: true,
        has_password: true,
        origin: 'https://example.com:8443',
      },
    },
  ],
})
