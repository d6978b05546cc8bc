import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'url-parse',
  name: 'URL parser',
  description: 'Splits an absolute URL (WHATWG URL Standard, as browsers parse it) into scheme, username/password presence, host (IDN hosts also shown in Unicode), port (explicit, and the scheme default), path and path segments, query parameters (repeated keys become arrays, + and %-escapes decoded like Python parse_qs) and fragment. Never fetches anything.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object({ url: t.String({ minLength: 1, maxLength: 8192, description: 'An absolute URL.' }) }, { additionalProperties: true }),
  output: t.Object({
    href: t.String({ description: 'Normalised URL.' }), scheme: t.String(), host: t.String(), hostname: t.String(), hostname_unicode: t.String(),
    port: t.Union([t.Integer(), t.Null()], { description: 'Explicit port, or null.' }), effective_port: t.Union([t.Integer(), t.Null()]),
    path: t.String(), path_segments: t.Array(t.String()), query: t.String(), params: t.Record(t.String(), t.Union([t.String(), t.Array(t.String())])),
    fragment: t.String(), has_credentials: t.Boolean(), origin: t.String(),
  }),
  examples: [{ name: 'Full URL', input: { url: 'https://user:pw@example.com:8443/a/b?x=1&x=2&y=hello+world#top' } }],
})
