import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'iban-bic-validate',
  name: 'IBAN and BIC validation',
  description: 'Validates an IBAN (ISO 13616: country length from the SWIFT IBAN Registry, BBAN format, ISO 7064 mod-97-10 check digits, and national check digits where ibantools knows them) and/or a BIC (ISO 9362: 8 or 11 characters, bank code, ISO 3166 country, location, optional branch; a second location character 0 marks a test BIC). Spaces are ignored and letters upper-cased. An invalid code is a 200 with valid:false and the reasons; a request with neither field is a 422.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      iban: t.Optional(t.String({ maxLength: 64, description: 'IBAN, with or without spaces.' })),
      bic: t.Optional(t.String({ maxLength: 16, description: 'BIC / SWIFT code.' })),
    },
    { additionalProperties: true },
  ),
  output: t.Object({
    iban: t.Union([t.Object({ input: t.String(), electronic: t.String(), printed: t.String(), valid: t.Boolean(), country: t.Union([t.String(), t.Null()]), expected_length: t.Union([t.Integer(), t.Null()]), check_digits: t.String(), mod97_ok: t.Boolean(), bban: t.String(), bank_identifier: t.Union([t.String(), t.Null()]), sepa: t.Union([t.Boolean(), t.Null()]), errors: t.Array(t.String()) }), t.Null()]),
    bic: t.Union([t.Object({ input: t.String(), valid: t.Boolean(), bank_code: t.String(), country: t.String(), location: t.String(), branch: t.Union([t.String(), t.Null()]), test_bic: t.Boolean(), errors: t.Array(t.String()) }), t.Null()]),
    valid: t.Boolean({ description: 'All given codes are valid.' }),
  }),
  examples: [{ name: 'UK IBAN', input: { iban: 'GB82 WEST 1234 5698 7654 32' } }],
})
