import * as ib from 'ibantools'

/** ISO 7064 MOD 97-10 of an IBAN (first 4 characters moved to the end, A=10 ... Z=35), chunked to stay within Number precision. */
export function mod97(iban: string): number {
  const s = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55))
  let r = 0
  for (let i = 0; i < s.length; i += 7) r = Number(String(r) + s.slice(i, i + 7)) % 97
  return r
}

const IBAN_MESSAGES: Record<string, string> = {
  NoIBANProvided: 'no IBAN given',
  NoIBANCountry: 'the first two letters are not a country that uses IBANs',
  WrongBBANLength: 'wrong length for this country (SWIFT IBAN Registry)',
  WrongBBANFormat: 'the BBAN does not match the country format (letters/digits in the wrong places)',
  ChecksumNotNumber: 'check digits (characters 3-4) are not digits',
  WrongIBANChecksum: 'the ISO 7064 mod-97 check fails (typo or transposed characters)',
  WrongAccountBankBranchChecksum: 'the national bank/branch/account check digit fails',
  QRIBANNotAllowed: 'QR-IBAN not allowed',
}
const BIC_MESSAGES: Record<string, string> = {
  NoBICProvided: 'no BIC given',
  NoBICCountry: 'characters 5-6 are not an ISO 3166 country code',
  WrongBICFormat:
    'must be 4 letters (bank), 2 letters (country), 2 letters/digits (location) and optionally 3 letters/digits (branch): 8 or 11 characters',
}
const err = (table: Record<string, string>) => (code: string) => ({ code, message: table[code] ?? code })

export function checkIban(input: string) {
  const e = ib.electronicFormatIBAN(input) ?? ''
  const country = e.slice(0, 2)
  const spec = ib.getCountrySpecifications()[country]
  const iban = spec?.chars ? spec : undefined
  const res = ib.validateIBAN(e)
  const alnum = /^[A-Z]{2}[0-9A-Z]{3,}$/.test(e)
  const parts = alnum ? ib.extractIBAN(e) : null
  const expected = alnum ? String(98 - mod97(`${country}00${e.slice(4)}`)).padStart(2, '0') : null
  return {
    input,
    electronic: e,
    printed: ib.friendlyFormatIBAN(e) ?? e,
    valid: res.valid,
    country: iban ? country : null,
    expected_length: iban?.chars ?? null,
    length: e.length,
    check_digits: e.slice(2, 4),
    expected_check_digits: expected,
    mod97_ok: alnum && mod97(e) === 1,
    bban: e.slice(4),
    bank_identifier: (res.valid && parts?.bankIdentifier) || null,
    branch_identifier: (res.valid && parts?.branchIdentifier) || null,
    sepa: iban ? (iban.SEPA ?? false) : null,
    errors: res.errorCodes.map((c) => ib.ValidationErrorsIBAN[c]).map(err(IBAN_MESSAGES)),
  }
}

export function checkBic(input: string) {
  const b = input.replace(/\s+/g, '').toUpperCase()
  const codes: string[] = []
  if (!/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(b)) codes.push('WrongBICFormat')
  if (b.length >= 6 && ib.validateBIC(b).errorCodes.includes(ib.ValidationErrorsBIC.NoBICCountry))
    codes.push('NoBICCountry')
  const branch = b.length === 11 ? b.slice(8) : null
  return {
    input,
    normalized: b,
    valid: codes.length === 0,
    bank_code: b.slice(0, 4),
    country: b.slice(4, 6),
    location: b.slice(6, 8),
    branch,
    primary_office: branch === null || branch === 'XXX',
    test_bic: b.length >= 8 && b[7] === '0',
    errors: codes.map(err(BIC_MESSAGES)),
  }
}
