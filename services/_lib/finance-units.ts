/**
 * Exact decimal arithmetic for on-chain amounts (BigInt only; no floating point anywhere on this path).
 * Shared by eth-unit-convert and eth-unit-converter.
 */
import { invalid, t } from '../../runtime/sdk'

/** Ethereum denominations as powers of ten of one wei. */
export const ETH_UNITS = { wei: 0, kwei: 3, mwei: 6, gwei: 9, szabo: 12, finney: 15, ether: 18 } as const
export type EthUnit = keyof typeof ETH_UNITS

export type Rounding = 'exact' | 'down' | 'half_up'
export const roundingField = () =>
  t.Optional(
    t.Union([t.Literal('exact'), t.Literal('down'), t.Literal('half_up')], {
      default: 'exact',
      description:
        'What to do when the amount is finer than 1 base unit (e.g. 0.5 wei): "exact" (default) refuses with a 422; "down" truncates toward zero; "half_up" rounds half away from zero. The output says whether rounding happened.',
    }),
  )

/** A parsed decimal: value = digits × 10^(−scale). */
export interface Dec {
  digits: bigint
  scale: number
}

const DEC_RE = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d{1,3}))?$/
const HEX_RE = /^([+-]?)0[xX]([0-9a-fA-F]+)$/

/** Parses "123", "-0.5", ".25", "1e18", "1.5E-3" or "0x1bc16d674ec80000" (hex: integers only) exactly. */
export function parseDec(field: string, raw: string): Dec {
  const s = raw.trim()
  const hex = HEX_RE.exec(s)
  if (hex) return { digits: (hex[1] === '-' ? -1n : 1n) * BigInt('0x' + hex[2]), scale: 0 }
  const m = DEC_RE.exec(s)
  if (!m)
    throw invalid(
      field,
      `"${raw.slice(0, 80)}" is not a decimal number (digits with an optional "." and exponent, or 0x-hex; no commas or spaces)`,
    )
  const [whole, frac = ''] = m[2].split('.')
  const exp = m[3] ? Number(m[3]) : 0
  if (Math.abs(exp) > 200) throw invalid(field, 'exponent out of range (|e| ≤ 200)')
  let digits = BigInt((whole || '0') + frac)
  if (m[1] === '-') digits = -digits
  let scale = frac.length - exp
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale)
    scale = 0
  }
  return { digits, scale }
}

/**
 * Rescales a decimal to an integer count of 10^(−targetScale) units. Throws a 422 when the value has more decimal
 * places than that and `rounding` is "exact".
 */
export function toUnits(
  field: string,
  d: Dec,
  targetScale: number,
  rounding: Rounding,
  unitLabel: string,
): { units: bigint; rounded: boolean } {
  const shift = targetScale - d.scale
  if (shift >= 0) return { units: d.digits * 10n ** BigInt(shift), rounded: false }
  const div = 10n ** BigInt(-shift)
  const q = d.digits / div // truncates toward zero
  const r = d.digits % div
  if (r === 0n) return { units: q, rounded: false }
  if (rounding === 'exact') {
    throw invalid(
      field,
      `has more decimal places than 1 ${unitLabel} allows (at most ${targetScale} after the point in this unit); send fewer decimals or set rounding to "down" or "half_up"`,
    )
  }
  if (rounding === 'down') return { units: q, rounded: true }
  const twice = (r < 0n ? -r : r) * 2n
  const away = twice >= div
  return { units: away ? q + (d.digits < 0n ? -1n : 1n) : q, rounded: true }
}

/** Formats `units × 10^(−scale)` as a plain decimal string without trailing zeros ("0.1", "100000", "-2.5"). */
export function formatUnits(units: bigint, scale: number): string {
  const neg = units < 0n
  let s = (neg ? -units : units).toString()
  if (scale > 0) {
    s = s.padStart(scale + 1, '0')
    const whole = s.slice(0, s.length - scale)
    const frac = s.slice(s.length - scale).replace(/0+$/, '')
    s = frac ? `${whole}.${frac}` : whole
  }
  return (neg && s !== '0' ? '-' : '') + s
}
