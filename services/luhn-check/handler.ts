import creditCardType from 'credit-card-type'
import { handlerFor, invalid } from '../../runtime/sdk'
import { luhn } from '../_lib/patterns'
import manifest from './manifest'

export default handlerFor(manifest, ({ number }) => {
  const digits = number.replace(/[\s-]/g, '')
  if (!/^\d+$/.test(digits)) throw invalid('number', 'may contain only digits, spaces and hyphens')
  if (digits.length < 2) throw invalid('number', 'needs at least 2 digits')
  const body = digits.slice(0, -1)
  const expected = (10 - ((luhnSum(body + '0')) % 10)) % 10
  const types = creditCardType(digits)
  const brand = types.length ? types[0] : null
  return {
    valid: luhn(digits),
    length: digits.length,
    last4: digits.slice(-4),
    check_digit: Number(digits.at(-1)),
    expected_check_digit: expected,
    brand: brand?.niceType ?? null,
    brand_length_ok: brand ? brand.lengths.includes(digits.length) : null,
    possible_brands: types.map((x) => x.niceType),
  }
})

function luhnSum(d: string): number {
  let sum = 0
  for (let i = 0; i < d.length; i++) {
    let n = d.charCodeAt(d.length - 1 - i) - 48
    if (i % 2) { n *= 2; if (n > 9) n -= 9 }
    sum += n
  }
  return sum
}
