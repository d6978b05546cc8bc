import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'phone-parse',
  name: 'Phone number parser',
  description:
    'Parses an international phone number with Google libphonenumber metadata (libphonenumber-js 1.13, full "max" metadata): E.164 form, country calling code, region (ISO 3166 alpha-2, null when the number is invalid or non-geographic such as +800), ' +
    'national number, extension, number type (MOBILE, FIXED_LINE, FIXED_LINE_OR_MOBILE, TOLL_FREE, PREMIUM_RATE, SHARED_COST, VOIP, PERSONAL_NUMBER, PAGER, UAN, VOICEMAIL; null when unknown), validity (matches an assigned range) and possibility (length only), ' +
    'international and national formats and a tel: URI. The number must start with + and the country calling code (a 422 says so otherwise); spaces, dots, hyphens, slashes and brackets are allowed, plus an extension written "ext. 123", "x123" or "#123". ' +
    'An unknown calling code or a number too short to parse is a 422; a parsable but unassigned number is a 200 with valid: false. Offline: no carrier or line-status lookup.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      phone: t.String({
        minLength: 2,
        maxLength: 40,
        description:
          'International number starting with +, e.g. +44 20 7946 0958 or +1 (415) 555-0132 ext. 12 (at most 40 characters).',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { number: 'phone', phone_number: 'phone', tel: 'phone' } },
  output: t.Object({
    e164: t.String({ description: 'E.164 form: + and digits only, no extension.' }),
    country_calling_code: t.String({ description: 'Country calling code without +, e.g. 44.' }),
    region: t.Union([t.String(), t.Null()], {
      description: 'ISO 3166 alpha-2 region of the number, or null (invalid or non-geographic).',
    }),
    calling_code_regions: t.Array(t.String(), {
      description: 'Every region sharing this calling code (e.g. US, CA, ... for +1); [] for non-geographic codes.',
    }),
    non_geographic: t.Boolean({
      description: 'The calling code is a global service (+800, +808, +870, +878, +881, +882, +883, +888, +979).',
    }),
    national_number: t.String({
      description: 'Significant national number (digits after the calling code, without trunk prefix).',
    }),
    ext: t.Union([t.String(), t.Null()], { description: 'Extension digits, or null.' }),
    type: t.Union([t.String(), t.Null()], {
      description: 'Number type from the metadata; null when the number is invalid or the type unknown.',
    }),
    valid: t.Boolean({ description: 'Length and prefix match an assigned range of the region.' }),
    possible: t.Boolean({ description: 'The length is possible for the region (weaker than valid).' }),
    length_check: t.Union([t.Literal('TOO_SHORT'), t.Literal('TOO_LONG'), t.Literal('INVALID_LENGTH'), t.Null()], {
      description: 'Why the length is not possible, or null when it is.',
    }),
    international: t.String({ description: 'International format, e.g. +44 20 7946 0958.' }),
    national: t.String({ description: 'National format with trunk prefix, e.g. 020 7946 0958.' }),
    uri: t.String({ description: 'tel: URI (RFC 3966), with ;ext= when there is an extension.' }),
  }),
  examples: [
    {
      name: 'London number',
      input: { phone: '+44 20 7946 0958' },
      output: {
        e164: '+442079460958',
        country_calling_code: '44',
        region: 'GB',
        calling_code_regions: ['GB', 'GG', 'IM', 'JE'],
        non_geographic: false,
        national_number: '2079460958',
        ext: null,
        type: 'FIXED_LINE',
        valid: true,
        possible: true,
        length_check: null,
        international: '+44 20 7946 0958',
        national: '020 7946 0958',
        uri: 'tel:+442079460958',
      },
    },
  ],
})
