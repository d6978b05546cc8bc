import { handlerFor, invalid, ServiceError } from '../../runtime/sdk'
import manifest from './manifest'

const TABLE: Array<[number, string]> = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
]
const CANONICAL = /^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$/

export function toRoman(n: number): string {
  let out = ''
  for (const [v, s] of TABLE)
    while (n >= v) {
      out += s
      n -= v
    }
  return out
}

export function fromRoman(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; ) {
    const two = TABLE.find(([, sym]) => sym.length === 2 && s.startsWith(sym, i))
    const one = two ?? TABLE.find(([, sym]) => sym === s[i])!
    n += one[0]
    i += one[1].length
  }
  return n
}

export default handlerFor(manifest, (input) => {
  let { value, numeral } = input
  if (typeof value === 'string') {
    if (numeral !== undefined)
      throw new ServiceError(422, 'INVALID_INPUT', 'Give exactly one of value or numeral.', {
        details: [{ path: '/value', message: 'exactly one of value or numeral' }],
      })
    ;[numeral, value] = [value, undefined] // a string in value is a numeral to convert back
  }
  if ((value === undefined) === (numeral === undefined))
    throw new ServiceError(422, 'INVALID_INPUT', 'Give exactly one of value or numeral.', {
      details: [{ path: '/value', message: 'exactly one of value or numeral' }],
    })
  if (value !== undefined) {
    if (!Number.isInteger(value) || value < 1 || value > 3999)
      throw invalid(
        'value',
        'must be an integer from 1 to 3999 (Roman numerals have no zero, negatives or fractions, and standard notation stops at 3999)',
      )
    return { value, numeral: toRoman(value) }
  }
  const s = numeral!.trim()
  if (!s || !CANONICAL.test(s))
    throw invalid(
      'numeral',
      `'${numeral}' is not a canonical Roman numeral for 1-3999 (use upper-case I V X L C D M in subtractive form, e.g. XIV, not XIIII)`,
    )
  return { value: fromRoman(s), numeral: s }
})
