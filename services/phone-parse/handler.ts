import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

// The full metadata is large: loaded on the first call, not at boot.
let loading: Promise<typeof import('libphonenumber-js/max')> | undefined
const lib = () => (loading ??= import('libphonenumber-js/max'))

export default handlerFor(manifest, async ({ phone }) => {
  const { parsePhoneNumberWithError } = await lib()
  const s = phone.trim()
  if (!s.startsWith('+')) throw invalid('phone', 'must start with + and the country calling code (e.g. +1 415 555 0132)')
  if (!/^\+[\d\s().-]+$/.test(s)) throw invalid('phone', 'may contain only digits, spaces, dots, hyphens and brackets after the +')
  let n
  try {
    n = parsePhoneNumberWithError(s)
  } catch (e) {
    throw invalid('phone', `cannot be parsed: ${(e as Error).message}`)
  }
  return {
    e164: n.number, country_calling_code: n.countryCallingCode, region: n.country ?? null, national_number: n.nationalNumber,
    type: n.getType() ?? null, valid: n.isValid(), possible: n.isPossible(), international: n.formatInternational(), national: n.formatNational(), uri: n.getURI(),
  }
})
