import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
]
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion', 'quadrillion']
const ORD: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
}

function below1000(n: number): string {
  const h = Math.floor(n / 100),
    r = n % 100
  const parts: string[] = []
  if (h) parts.push(`${ONES[h]} hundred`)
  if (r) parts.push(r < 20 ? ONES[r] : TENS[Math.floor(r / 10)] + (r % 10 ? `-${ONES[r % 10]}` : ''))
  return parts.join(' ')
}

export function cardinal(n: bigint): string {
  if (n === 0n) return 'zero'
  if (n < 0n) return `minus ${cardinal(-n)}`
  const groups: string[] = []
  for (let i = 0; n > 0n; i++, n /= 1000n) {
    const g = Number(n % 1000n)
    if (g) groups.unshift(below1000(g) + (SCALES[i] ? ` ${SCALES[i]}` : ''))
  }
  return groups.join(' ')
}

function ordinal(words: string): string {
  return words.replace(/(\w+)$/, (w) => ORD[w] ?? (w.endsWith('y') ? w.slice(0, -1) + 'ieth' : w + 'th'))
}

/**
 * |x| as plain decimal digits [integer, fraction]: the shortest representation that round-trips the double
 * (what JSON carried), with exponent forms such as 1e-7 written out.
 */
export function decimalParts(x: number): [string, string] {
  const s = String(Math.abs(x))
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(s)
  if (!m) throw invalid('number', 'must be a finite number')
  let digits = m[1] + (m[2] ?? '')
  let point = m[1].length + Number(m[3] ?? 0)
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits
    point = 1
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length)
  const int = digits.slice(0, point).replace(/^0+(?=\d)/, '')
  return [int, digits.slice(point).replace(/0+$/, '')]
}

export default handlerFor(manifest, ({ number, form = 'cardinal' }) => {
  const [int, frac] = decimalParts(number)
  const minus = number < 0 ? 'minus ' : ''
  let words: string
  if (form === 'ordinal') {
    if (frac || number < 0) throw invalid('number', 'ordinals need a non-negative integer')
    words = ordinal(cardinal(BigInt(int)))
  } else if (form === 'currency') {
    // round half-up on the decimal digits as written: 2.675 -> 2.68, 0.005 -> 0.01
    let cents = BigInt(int) * 100n + BigInt((frac + '00').slice(0, 2))
    if (Number(frac[2] ?? '0') >= 5) cents += 1n
    const d = cents / 100n,
      c = cents % 100n
    const dollars = `${cardinal(d)} ${d === 1n ? 'dollar' : 'dollars'}`
    words = (cents ? minus : '') + (c ? `${dollars} and ${cardinal(c)} ${c === 1n ? 'cent' : 'cents'}` : dollars)
  } else {
    words = minus + cardinal(BigInt(int)) + (frac ? ` point ${[...frac].map((d) => ONES[Number(d)]).join(' ')}` : '')
  }
  return { number, form, words }
})
