import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'base64-hex-codec',
  name: 'Base64, hex and percent codec',
  description:
    "Encodes UTF-8 text to, or decodes it from, base64 (RFC 4648 §4), base64url (§5, unpadded on output, padding optional on input), hex (base16, case-insensitive on input) or URL percent-encoding (RFC 3986: everything but the unreserved A-Z a-z 0-9 - . _ ~ is escaped, as Python's urllib.parse.quote(s, safe='') does; decoding is urllib.parse.unquote: %XX escapes become bytes, + stays +, other characters are kept as UTF-8). Whitespace is ignored when decoding base64 and hex. Decoding input that is not valid for the alphabet (bad characters, misplaced padding, odd hex, a % not followed by two hex digits) is a 422; decoded bytes that are not UTF-8 are returned with U+FFFD in `output`, exactly in `hex`, and flagged by utf8_valid. An answer longer than 10,000,000 characters (output and hex together) is a 422 INPUT_TOO_LARGE.",
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  linear: true,
  input: t.Object(
    {
      input: t.String({ maxLength: 1_000_000, description: 'Text to encode, or encoded text to decode.' }),
      op: t.Optional(
        t.Union([t.Literal('encode'), t.Literal('decode')], { default: 'encode', description: 'encode or decode.' }),
      ),
      alphabet: t.Optional(
        t.Union([t.Literal('base64'), t.Literal('base64url'), t.Literal('hex'), t.Literal('percent')], {
          default: 'base64',
          description:
            'Encoding to use: base64 (default), base64url, hex, or percent (URL encoding; `url` is accepted for it).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      text: 'input',
      data: 'input',
      mode: 'op',
      action: 'op',
      type: 'op',
      operation: 'op',
      encoding: 'alphabet',
      format: 'alphabet',
      scheme: 'alphabet',
    },
    values: {
      alphabet: {
        url: 'percent',
        urlencode: 'percent',
        url_encode: 'percent',
        url_encoding: 'percent',
        uri: 'percent',
        percent_encoding: 'percent',
        base16: 'hex',
        b64: 'base64',
        base64_url: 'base64url',
        url_safe: 'base64url',
      },
      op: { enc: 'encode', dec: 'decode' },
    },
  },
  output: t.Object({
    op: t.String(),
    alphabet: t.String(),
    output: t.String({
      description: 'The encoded text, or the decoded text (UTF-8, with U+FFFD for invalid sequences).',
    }),
    bytes: t.Integer({ description: 'Number of raw bytes.' }),
    utf8_valid: t.Boolean({ description: 'Whether the raw bytes are valid UTF-8.' }),
    hex: t.String({ description: 'The raw bytes in hex.' }),
  }),
  examples: [
    {
      name: 'RFC 4648 vector',
      input: { input: 'foobar', op: 'encode', alphabet: 'base64' },
      output: { op: 'encode', alphabet: 'base64', output: 'Zm9vYmFy', bytes: 6, utf8_valid: true, hex: '666f6f626172' },
    },
  ],
})
