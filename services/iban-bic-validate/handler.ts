import * as ib from 'ibantools'
import { isSupportedCountry } from 'libphonenumber-js/min'
import { handlerFor, ServiceError } from '../../runtime/sdk'
import manifest from './manifest'

/** ISO 7064 MOD 97-10 on the rearranged IBAN, chunked to stay within Number precision. */
export function mod97(iban: string): number {
  const s = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))
  let r = 0
  for (let i = 0; i < s.length; i += 7) r = Number(String(r) + s.slice(i, i + 7)) % 97
  return r
}

function iban(input: string) {
  const e = ib.electronicFormatIBAN(input) ?? ''
  const spec = ib.getCountrySpecifications()[e.slice(0, 2)]
  const res = ib.validateIBAN(e)
  const errors = res.errorCodes.map((c) => ib.ValidationErrorsIBAN[c])
  const parts = /^[A-Z0-9]+$/.test(e) ? ib.extractIBAN(e) : null
  return {
    input, electronic: e, printed: ib.friendlyFormatIBAN(e) ?? e, valid: res.valid, country: spec ? e.slice(0, 2) : null, expected_length: spec?.chars ?? null,
    check_digits: e.slice(2, 4), mod97_ok: /^[A-Z0-9]{5,}$/.test(e) && mod97(e) === 1, bban: e.slice(4), bank_identifier: parts?.bankIdentifier ?? null, sepa: spec?.SEPA ?? null, errors,
  }
}

function bic(input: string) {
  const b = input.replace(/\s+/g, '').toUpperCase()
  const res = ib.validateBIC(b)
  const errors: string[] = res.errorCodes.map((c) => ib.ValidationErrorsBIC[c])
  if (b.length >= 6 && !isSupportedCountry(b.slice(4, 6) as never) && !errors.includes('NoBICCountry')) errors.push('NoBICCountry')
  return {
    input, valid: res.valid && errors.length === 0, bank_code: b.slice(0, 4), country: b.slice(4, 6), location: b.slice(6, 8), branch: b.length === 11 ? b.slice(8) : null,
    test_bic: b.length >= 8 && b[7] === '0', errors,
  }
}

export default handlerFor(manifest, (input) => {
  if (input.iban === undefined && input.bic === undefined) throw new ServiceError(422, 'INVALID_INPUT', 'Give an iban, a bic, or both.', [{ path: '/iban', message: 'iban or bic required' }])
  const i = input.iban !== undefined ? iban(input.iban) : null
  const b = input.bic !== undefined ? bic(input.bic) : null
  return { iban: i, bic: b, valid: (i?.valid ?? true) && (b?.valid ?? true) }
})
