import { defineService, flat, t } from '../../runtime/sdk'

export const ALGOS = ['md5', 'sha1', 'sha256', 'sha384', 'sha512', 'sha3-256', 'sha3-512', 'blake2b256'] as const

export default defineService({
  slug: 'hash-digest',
  name: 'Hash digest',
  description:
    'Digest of UTF-8 text with md5, sha1, sha256, sha384, sha512, sha3-256, sha3-512 or blake2b256; with a `key`, an HMAC (RFC 2104) of the same algorithm (all but blake2b256). Output in hex (default) or base64: send `encoding: "base64"` (also accepted as `output` or `format`). Text up to 1,000,000 characters.',
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  linear: true,
  input: t.Object(
    {
      text: t.String({ maxLength: 1_000_000, description: 'The text to hash (UTF-8).' }),
      algo: t.Optional(
        t.Union(
          ALGOS.map((a) => t.Literal(a)),
          { default: 'sha256', description: 'Hash algorithm.' },
        ),
      ),
      key: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 4096,
          description: 'When given, computes HMAC-<algo> (RFC 2104) with this UTF-8 key; not offered for blake2b256.',
        }),
      ),
      encoding: t.Optional(
        t.Union([t.Literal('hex'), t.Literal('base64')], {
          default: 'hex',
          description: 'Output encoding of the digest: hex (default) or base64.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      output: 'encoding',
      format: 'encoding',
      output_format: 'encoding',
      output_encoding: 'encoding',
      digest_encoding: 'encoding',
      algorithm: 'algo',
      hash: 'algo',
      input: 'text',
      hmac_key: 'key',
      secret: 'key',
    },
    values: {
      algo: {
        'sha-1': 'sha1',
        'sha-256': 'sha256',
        'sha-384': 'sha384',
        'sha-512': 'sha512',
        sha3: 'sha3-256',
        blake2b: 'blake2b256',
        'blake2b-256': 'blake2b256',
      },
      encoding: { base16: 'hex', b64: 'base64' },
    },
  },
  output: t.Object({
    algo: t.String({ description: 'Algorithm used.' }),
    hmac: t.Boolean({ description: 'True when a key was used.' }),
    encoding: t.String(),
    digest: t.String({ description: 'The digest in the requested encoding.' }),
    bytes: t.Integer({ description: 'Digest length in bytes.' }),
  }),
  examples: [
    {
      name: 'SHA-256 of abc',
      input: { text: 'abc', algo: 'sha256' },
      output: {
        algo: 'sha256',
        hmac: false,
        encoding: 'hex',
        digest: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
        bytes: 32,
      },
    },
  ],
})
