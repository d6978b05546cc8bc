import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'jwt-decode',
  name: 'JWT decoder',
  description:
    'Decodes a JSON Web Token (RFC 7519) compact serialization: header and payload as JSON, registered time claims (exp, nbf, iat) as ISO-8601, and whether it is expired or not yet valid at the time of the call. It NEVER verifies the signature: do not trust the contents for authorization. A header or payload nested deeper than 64 levels is a 422.',
  category: 'encoding',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  linear: true,
  input: t.Object(
    {
      token: t.String({
        minLength: 1,
        maxLength: 100_000,
        description: 'The JWT (three base64url parts separated by dots); a leading "Bearer " is ignored.',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { jwt: 'token' } },
  output: t.Object({
    header: t.Record(t.String(), t.Unknown(), { description: 'The decoded JOSE header.' }),
    payload: t.Record(t.String(), t.Unknown(), { description: 'The decoded claims.' }),
    signature_present: t.Boolean({ description: 'Whether the third part is non-empty (alg none tokens have none).' }),
    verified: t.Literal(false, { description: 'Always false: signatures are not checked.' }),
    expired: t.Union([t.Boolean(), t.Null()], { description: 'exp is in the past; null without exp.' }),
    not_yet_valid: t.Union([t.Boolean(), t.Null()], { description: 'nbf is in the future; null without nbf.' }),
    expires_at: t.Union([t.String(), t.Null()]),
    issued_at: t.Union([t.String(), t.Null()]),
    not_before: t.Union([t.String(), t.Null()]),
    checked_at: t.String({ description: 'The time used for expired / not_yet_valid.' }),
  }),
  examples: [
    {
      name: 'RFC 7519 §3.1',
      input: {
        token:
          'eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      },
    },
  ],
})
