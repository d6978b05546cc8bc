import creditCardType from 'credit-card-type'
import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

/** Luhn sum of `d` (rightmost digit not doubled). */
function luhnSum(d: string): number {
  let sum = 0
  for (let i = 0; i < d.length; i++) {
    let n = d.charCodeAt(d.length - 1 - i) - 48
    if (i % 2) {
      n *= 2
      if (n > 9) n -= 9
    }
    sum += n
  }
  return sum
}

export default handlerFor(manifest, ({ number }) => {
  const digits = number.replace(/[\s-]/g, '')
  if (!/^\d+$/.test(digits)) throw invalid('number', 'may contain only digits, spaces and hyphens')
  if (digits.length < 2) throw invalid('number', 'needs at least 2 digits (payload and check digit)')
  const expected = (10 - (luhnSum(digits.slice(0, -1) + '0') % 10)) % 10
  const types = creditCardType(digits)
  // credit-card-type returns one entry when the longest matching prefix decides the brand, else every candidate.
  const brand = types.length === 1 ? types[0] : null
  return {
    valid: luhnSum(digits) % 10 === 0,
    length: digits.length,
    last4: digits.slice(-4),
    check_digit: Number(digits.at(-1)),
    expected_check_digit: expected,
    brand: brand?.niceType ?? null,
    brand_code: brand?.type ?? null,
    brand_length_ok: brand ? brand.lengths.includes(digits.length) : null,
    security_code: brand ? { name: brand.code.name, size: brand.code.size } : null,
    possible_brands: types.map((x) => x.niceType),
  }
})
