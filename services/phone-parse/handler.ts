import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

type Lib = typeof import('libphonenumber-js/max')
// The full metadata is large: loaded on the first call, not at boot.
let loading: Promise<{ lib: Lib; regions: Map<string, string[]> }> | undefined
const load = () =>
  (loading ??= import('libphonenumber-js/max').then((lib) => {
    const regions = new Map<string, string[]>()
    for (const c of lib.getCountries()) {
      const code = lib.getCountryCallingCode(c)
      regions.set(code, [...(regions.get(code) ?? []), c])
    }
    return { lib, regions }
  }))

const SHAPE = /^\+[\d\s()./-]+(?:\s*(?:ext\.?|extension|x|#)\s*\d{1,10})?$/i
const MESSAGES: Record<string, string> = {
  INVALID_COUNTRY: 'starts with an unknown country calling code',
  TOO_SHORT: 'is too short to be a phone number',
  TOO_LONG: 'is too long to be a phone number',
  NOT_A_NUMBER: 'is not a phone number',
}

export default handlerFor(manifest, async ({ phone }) => {
  const s = phone.trim()
  if (!s.startsWith('+'))
    throw invalid(
      'phone',
      'must start with + and the country calling code (e.g. +1 415 555 0132); national formats are not accepted',
    )
  if (!SHAPE.test(s))
    throw invalid(
      'phone',
      'may contain only digits, spaces, dots, hyphens, slashes and brackets after the +, and an optional extension (ext. 123)',
    )
  const { lib, regions } = await load()
  let n
  try {
    n = lib.parsePhoneNumberWithError(s)
  } catch (e) {
    const code = (e as Error).message
    throw invalid('phone', MESSAGES[code] ?? `cannot be parsed (${code})`)
  }
  const raw = lib.validatePhoneNumberLength(n.number)
  const length = raw === 'TOO_SHORT' || raw === 'TOO_LONG' || raw === 'INVALID_LENGTH' ? raw : null
  return {
    e164: n.number,
    country_calling_code: n.countryCallingCode,
    region: n.country ?? null,
    calling_code_regions: regions.get(n.countryCallingCode) ?? [],
    non_geographic: !regions.has(n.countryCallingCode),
    national_number: n.nationalNumber,
    ext: n.ext ?? null,
    type: n.getType() ?? null,
    valid: n.isValid(),
    possible: n.isPossible(),
    length_check: length,
    international: n.formatInternational(),
    national: n.formatNational(),
    uri: n.getURI(),
  }
})
