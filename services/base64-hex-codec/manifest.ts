import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'base64-hex-codec',
  name: 'Base64, hex and percent codec',
  description: 'Encodes UTF-8 text to, or decodes it from, base64 (RFC 4648 §4), base64url (§5, unpadded on output, padding optional on input), hex (base16, case-insensitive on input) or URL percent-encoding (RFC 3986: everything but unreserved characters is escaped). Decoding input that is not valid for the alphabet is a 422; decoded bytes that are not UTF-8 are also returned as hex.',
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      input: t.String({ maxLength: 1_000_000, description: 'Text to encode, or encoded text to decode.' }),
      op: t.Optional(t.Union([t.Literal('encode'), t.Literal('decode')], { default: 'encode', description: 'encode or decode.' })),
      alphabet: t.Optional(t.Union([t.Literal('base64'), t.Literal('base64url'), t.Literal('hex'), t.Literal('percent')], { default: 'base64', description: 'Encoding to use.' })),
    },
    { additionalProperties: true },
  ),
  output: t.Object({
    op: t.String(),
    alphabet: t.String(),
    output: t.String({ description: 'The encoded text, or the decoded text (UTF-8, with U+FFFD for invalid sequences).' }),
    bytes: t.Integer({ description: 'Number of raw bytes.' }),
    utf8_valid: t.Boolean({ description: 'Whether the raw bytes are valid UTF-8.' }),
    hex: t.String({ description: 'The raw bytes in hex.' }),
  }),
  examples: [{ name: 'RFC 4648 vector', input: { input: 'foobar', op: 'encode', alphabet: 'base64' }, output: { op: 'encode', alphabet: 'base64', output: 'Zm9vYmFy', bytes: 6, utf8_valid: true, hex: '666f6f626172' } }],
})
