import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'phone-parse',
  name: 'Phone number parser',
  description: 'Parses an international phone number with Google\'s libphonenumber metadata (libphonenumber-js, full "max" metadata): E.164 form, country calling code, region (ISO 3166 alpha-2), national number, number type (MOBILE, FIXED_LINE, FIXED_LINE_OR_MOBILE, TOLL_FREE, VOIP, ...), validity and possibility, and international/national formats. The number must start with + and the country code (a 422 says so otherwise); spaces, dots, hyphens and brackets are allowed.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({ phone: t.String({ minLength: 2, maxLength: 40, description: 'E.g. +44 20 7946 0958.' }) }, { additionalProperties: true }),
  output: t.Object({
    e164: t.String(), country_calling_code: t.String(), region: t.Union([t.String(), t.Null()]), national_number: t.String(),
    type: t.Union([t.String(), t.Null()]), valid: t.Boolean(), possible: t.Boolean(), international: t.String(), national: t.String(), uri: t.String({ description: 'tel: URI (RFC 3966).' }),
  }),
  examples: [{ name: 'London number', input: { phone: '+44 20 7946 0958' }, output: { e164: '+442079460958', country_calling_code: '44', region: 'GB', national_number: '2079460958', type: 'FIXED_LINE', valid: true, possible: true, international: '+44 20 7946 0958', national: '020 7946 0958', uri: 'tel:+442079460958' } }],
})
