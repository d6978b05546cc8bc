import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen']
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion']
const ORD: Record<string, string> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' }

function below1000(n: number): string {
  const h = Math.floor(n / 100), r = n % 100
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

export default handlerFor(manifest, ({ number, form = 'cardinal' }) => {
  let words: string
  if (form === 'ordinal') {
    if (!Number.isInteger(number) || number < 0) throw invalid('number', 'ordinals need a non-negative integer')
    words = ordinal(cardinal(BigInt(number)))
  } else if (form === 'currency') {
    if (number < 0) throw invalid('number', 'currency amounts must not be negative')
    const cents = BigInt(Math.round(Number((Math.abs(number) * 100).toFixed(6))))
    const d = cents / 100n, c = cents % 100n
    const dollars = `${cardinal(d)} ${d === 1n ? 'dollar' : 'dollars'}`
    words = c ? `${dollars} and ${cardinal(c)} ${c === 1n ? 'cent' : 'cents'}` : dollars
  } else {
    const [int, frac] = String(Math.abs(number)).includes('e') ? [Math.trunc(Math.abs(number)).toString(), ''] : String(Math.abs(number)).split('.')
    words = cardinal(BigInt(int)) + (frac ? ` point ${[...frac].map((d) => ONES[Number(d)]).join(' ')}` : '')
    if (number < 0) words = `minus ${words}`
  }
  return { number, form, words }
})
