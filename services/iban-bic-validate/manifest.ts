import { defineService, flat, t } from '../../runtime/sdk'

const Err = t.Array(
  t.Object({
    code: t.String({ description: 'Machine code (ibantools names), e.g. WrongIBANChecksum.' }),
    message: t.String({ description: 'What is wrong, in words.' }),
  }),
  { description: 'Every failed check; empty when valid.' },
)
const NS = (d: string) => t.Union([t.String(), t.Null()], { description: d })

export default defineService({
  slug: 'iban-bic-validate',
  name: 'IBAN and BIC validation',
  description:
    'Validates an IBAN and/or a BIC offline with ibantools 4.5. IBAN (ISO 13616): spaces and hyphens removed and letters upper-cased, then the country must use IBANs, the length must match the SWIFT IBAN Registry (e.g. DE 22, GB 22, FR 27, NO 15), ' +
    'the BBAN must match the country format, the ISO 7064 mod-97-10 check must give 1, and national check digits are verified where ibantools knows them (e.g. BE, NL, NO, PL, PT, SI). Also returns the check digits that would be correct, the bank and branch identifiers (when valid and defined for the country) and SEPA membership. ' +
    'BIC (ISO 9362): 4-letter bank code, ISO 3166 country (XK accepted), 2-character location (second character 0 marks a test BIC), optional 3-character branch (XXX or none = primary office). ' +
    'An invalid code is a 200 with valid: false and the reasons; a request with neither field, an empty field or a non-string is a 422. When both are valid, country_match tells whether they name the same country.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      iban: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 64,
          description:
            'IBAN, electronic (GB82WEST12345698765432) or printed with spaces (GB82 WEST 1234 5698 7654 32).',
        }),
      ),
      bic: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 16,
          description: 'BIC / SWIFT code, 8 or 11 characters (e.g. DEUTDEFF500).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { account: 'iban', swift: 'bic', bic_code: 'bic', swift_code: 'bic' } },
  output: t.Object({
    iban: t.Union(
      [
        t.Object({
          input: t.String({ description: 'The IBAN as sent.' }),
          electronic: t.String({ description: 'Electronic format: no spaces, upper case.' }),
          printed: t.String({ description: 'Print format: groups of 4.' }),
          valid: t.Boolean({ description: 'Every check passes.' }),
          country: NS('ISO 3166 country code when the country uses IBANs, else null.'),
          expected_length: t.Union([t.Integer(), t.Null()], {
            description: 'IBAN length for that country (SWIFT IBAN Registry), or null.',
          }),
          length: t.Integer({ description: 'Length of the electronic form.' }),
          check_digits: t.String({ description: 'Characters 3-4 as given.' }),
          expected_check_digits: NS(
            'The check digits that would satisfy mod-97 for this country and BBAN; null when the text is not alphanumeric.',
          ),
          mod97_ok: t.Boolean({ description: 'The ISO 7064 mod-97-10 remainder is 1.' }),
          bban: t.String({ description: 'Basic Bank Account Number (after the first 4 characters).' }),
          bank_identifier: NS('Bank code from the BBAN (when valid and defined for the country).'),
          branch_identifier: NS('Branch / sort code (when valid and defined for the country).'),
          sepa: t.Union([t.Boolean(), t.Null()], {
            description: 'The country is in the SEPA scheme; null for an unknown country.',
          }),
          errors: Err,
        }),
        t.Null(),
      ],
      { description: 'IBAN result; null when no IBAN was given.' },
    ),
    bic: t.Union(
      [
        t.Object({
          input: t.String({ description: 'The BIC as sent.' }),
          normalized: t.String({ description: 'Without spaces, upper case.' }),
          valid: t.Boolean({ description: 'Structure and country are valid.' }),
          bank_code: t.String({ description: 'Characters 1-4: institution code.' }),
          country: t.String({ description: 'Characters 5-6: ISO 3166 country code.' }),
          location: t.String({ description: 'Characters 7-8: location code.' }),
          branch: NS('Characters 9-11: branch code, or null for an 8-character BIC.'),
          primary_office: t.Boolean({ description: 'No branch, or branch XXX.' }),
          test_bic: t.Boolean({ description: 'Second location character is 0 (a test and training BIC).' }),
          errors: Err,
        }),
        t.Null(),
      ],
      { description: 'BIC result; null when no BIC was given.' },
    ),
    country_match: t.Union([t.Boolean(), t.Null()], {
      description:
        'IBAN and BIC name the same country; null unless both were given and the BIC is valid and the IBAN country known.',
    }),
    valid: t.Boolean({ description: 'Every code given is valid.' }),
  }),
  examples: [
    {
      name: 'UK IBAN',
      input: { iban: 'GB82 WEST 1234 5698 7654 32' },
      output: {
        iban: {
          input: 'GB82 WEST 1234 5698 7654 32',
          electronic: 'GB82WEST12345698765432',
          printed: 'GB82 WEST 1234 5698 7654 32',
          valid: true,
          country: 'GB',
          expected_length: 22,
          length: 22,
          check_digits: '82',
          expected_check_digits: '82',
          mod97_ok: true,
          bban: 'WEST12345698765432',
          bank_identifier: 'WEST',
          branch_identifier: '123456',
          sepa: true,
          errors: [],
        },
        bic: null,
        country_match: null,
        valid: true,
      },
    },
  ],
})
