/**
 * Shared maths and conventions for the finance and crypto calculators.
 * Rates are decimals (0.065 = 6.5 %) unless the request sets `rate_unit: "percent"`.
 */
import { invalid, t } from '../../runtime/sdk'

// ---------- rate conventions ----------

export type RateUnit = 'decimal' | 'percent'

/**
 * Input field shared by every rate-taking calculator: THE rule for rates across the finance services. Rates are
 * decimals by default (0.065 = 6.5 %); `rate_unit: "percent"` makes them percents (6.5 = 6.5 %). A value that only
 * makes sense in the other unit is refused by readRate with a 422 that says which value to send.
 */
export const rateUnitField = (fields: string) =>
  t.Optional(
    t.Union([t.Literal('decimal'), t.Literal('percent')], {
      default: 'decimal',
      description: `How ${fields} are written: "decimal" (default; 0.065 means 6.5 %; also accepted as "fraction") or "percent" (6.5 means 6.5 %). Outputs give decimals plus *_pct fields.`,
    }),
  )

/** Other spellings of the rate_unit values; every manifest with a rate_unit spreads this into `aliases.values`. */
export const RATE_UNIT_ALIASES: Record<string, Record<string, string>> = {
  rate_unit: {
    fraction: 'decimal',
    fractional: 'decimal',
    ratio: 'decimal',
    pct: 'percent',
    percentage: 'percent',
    '%': 'percent',
    percents: 'percent',
  },
}

/**
 * Reads a rate in the request's unit, returns it as a decimal, and checks it lies in [min, max] (decimals).
 * The error message suggests the other unit when the value looks like a percent sent as a decimal.
 */
export function readRate(
  field: string,
  value: number | undefined,
  unit: RateUnit | undefined,
  min: number,
  max: number,
  opts: { openMin?: boolean; fallback?: number } = {},
): number {
  if (value === undefined || value === null) {
    if (opts.fallback !== undefined) return opts.fallback
    throw invalid(field, 'is required')
  }
  if (!Number.isFinite(value)) throw invalid(field, 'must be a finite number')
  const dec = unit === 'percent' ? value / 100 : value
  const tooLow = opts.openMin ? dec <= min : dec < min
  if (tooLow || dec > max) {
    const range = `${opts.openMin ? '(' : '['}${pct(min)} %, ${pct(max)} %]`
    const hint =
      unit !== 'percent' && dec > max && value / 100 <= max
        ? ` Rates are decimals by default (0.065 = 6.5 %); send ${value / 100} or set rate_unit: "percent".`
        : ''
    throw invalid(field, `${value}${unit === 'percent' ? ' %' : ''} is outside the allowed range ${range}.${hint}`)
  }
  return dec
}

/** Decimal to percent without float noise (0.07 -> 7, not 7.000000000000001). */
export const pct = (x: number) => roundTo(x * 100, 10)

/** Rounds to `d` decimals; half away from zero, robust to binary noise (1.005 -> 1.01). */
export function roundTo(x: number, d: number): number {
  if (!Number.isFinite(x)) return x
  const f = 10 ** d
  const y = Math.abs(x) * f
  const r = Math.round(y + Math.max(Number.EPSILON * y * 4, 1e-9))
  const out = (Math.sign(x) * r) / f
  return Object.is(out, -0) ? 0 : out
}
/** Money rounding to cents. */
export const cents = (x: number) => roundTo(x, 2)
/** Rounds to 12 significant-ish decimals to strip float noise from reported values. */
export const clean = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(12)) : x)

/** Requires a finite number within bounds. */
export function need(
  field: string,
  value: number | undefined,
  min: number,
  max: number,
  opts: { openMin?: boolean; openMax?: boolean } = {},
): number {
  if (value === undefined || value === null) throw invalid(field, 'is required')
  if (!Number.isFinite(value)) throw invalid(field, 'must be a finite number')
  if ((opts.openMin ? value <= min : value < min) || (opts.openMax ? value >= max : value > max)) {
    throw invalid(
      field,
      `${value} is outside the allowed range ${opts.openMin ? '(' : '['}${min}, ${max}${opts.openMax ? ')' : ']'}`,
    )
  }
  return value
}

// ---------- normal distribution (W. J. Cody's rational Chebyshev erfc, double precision) ----------

const A = [3.1611237438705656, 113.864154151050156, 377.485237685302021, 3209.37758913846947, 0.185777706184603153]
const B = [23.6012909523441209, 244.024637934444173, 1282.61652607737228, 2844.23683343917062]
const C = [
  0.564188496988670089, 8.88314979438837594, 66.1191906371416295, 298.635138197400131, 881.95222124176909,
  1712.04761263407058, 2051.07837782607147, 1230.33935479799725, 2.15311535474403846e-8,
]
const D = [
  15.7449261107098347, 117.693950891312499, 537.181101862009858, 1621.38957456669019, 3290.79923573345963,
  4362.61909014324716, 3439.36767414372164, 1230.33935480374942,
]
const P = [
  0.305326634961232344, 0.360344899949804439, 0.125781726111229246, 0.0160837851487422766, 6.58749161529837803e-4,
  0.0163153871373020978,
]
const Q = [
  2.56852019228982242, 1.87295284992346725, 0.527905102951428412, 0.0605183413124413191, 0.00233520497626869185,
]
const SQRPI = 0.56418958354775628695

/** Complementary error function, Cody (1969) / CALERF, relative error about 1e-16. */
export function erfc(x: number): number {
  const y = Math.abs(x)
  let r: number
  if (y <= 0.46875) {
    const z = y > 1.11e-16 ? y * y : 0
    let xn = A[4] * z
    let xd = z
    for (let i = 0; i < 3; i++) {
      xn = (xn + A[i]) * z
      xd = (xd + B[i]) * z
    }
    const erf = (x * (xn + A[3])) / (xd + B[3])
    return 1 - erf
  } else if (y <= 4) {
    let xn = C[8] * y
    let xd = y
    for (let i = 0; i < 7; i++) {
      xn = (xn + C[i]) * y
      xd = (xd + D[i]) * y
    }
    r = (xn + C[7]) / (xd + D[7])
  } else {
    if (y >= 26.543) r = 0
    else {
      const z = 1 / (y * y)
      let xn = P[5] * z
      let xd = z
      for (let i = 0; i < 4; i++) {
        xn = (xn + P[i]) * z
        xd = (xd + Q[i]) * z
      }
      r = (z * (xn + P[4])) / (xd + Q[4])
      r = (SQRPI - r) / y
    }
  }
  if (r !== 0) {
    const ysq = Math.trunc(y * 16) / 16
    const del = (y - ysq) * (y + ysq)
    r = Math.exp(-ysq * ysq) * Math.exp(-del) * r
  }
  return x < 0 ? 2 - r : r
}

/** Standard normal CDF N(x) = erfc(−x/√2)/2. */
export const normCdf = (x: number) => 0.5 * erfc(-x / Math.SQRT2)
/** Standard normal density φ(x). */
export const normPdf = (x: number) => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI)

// ---------- root finding ----------

/**
 * Root of f in [lo, hi] where f(lo) and f(hi) differ in sign: Newton steps (when `df` is given and the step stays
 * inside the bracket) safeguarded by bisection; at most `maxIter` iterations, so it always stops.
 * Returns null when the bracket does not change sign.
 */
export function findRoot(
  f: (x: number) => number,
  lo: number,
  hi: number,
  opts: { df?: (x: number) => number; guess?: number; tol?: number; maxIter?: number } = {},
): number | null {
  const tol = opts.tol ?? 1e-13
  let flo = f(lo)
  let fhi = f(hi)
  if (flo === 0) return lo
  if (fhi === 0) return hi
  if (!(Math.sign(flo) * Math.sign(fhi) < 0)) return null
  let x = opts.guess !== undefined && opts.guess > lo && opts.guess < hi ? opts.guess : (lo + hi) / 2
  for (let i = 0; i < (opts.maxIter ?? 200); i++) {
    const fx = f(x)
    if (fx === 0) return x
    if (Math.sign(fx) === Math.sign(flo)) {
      lo = x
      flo = fx
    } else {
      hi = x
      fhi = fx
    }
    let next = (lo + hi) / 2
    if (opts.df) {
      const d = opts.df(x)
      const n = x - fx / d
      if (Number.isFinite(n) && n > lo && n < hi) next = n
    } else {
      // secant / false-position step inside the bracket (Illinois would be faster; bisection guards it)
      const s = lo - (flo * (hi - lo)) / (fhi - flo)
      if (Number.isFinite(s) && s > lo && s < hi && i % 3 !== 2) next = s
    }
    if (Math.abs(next - x) <= tol * Math.max(1, Math.abs(x)) || hi - lo <= tol * Math.max(1, Math.abs(x))) return next
    x = next
  }
  return x
}

// ---------- dates ----------

/** Adds whole months to a YYYY-MM-DD date, clamping the day to the month's end (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(y: number, m: number, d: number, k: number): string {
  const total = y * 12 + (m - 1) + k
  const ny = Math.floor(total / 12)
  const nm = (total % 12) + 1
  const dim = [
    31,
    (ny % 4 === 0 && ny % 100 !== 0) || ny % 400 === 0 ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ][nm - 1]
  return `${String(ny).padStart(4, '0')}-${String(nm).padStart(2, '0')}-${String(Math.min(d, dim)).padStart(2, '0')}`
}

/** Number of sign changes in a sequence, zeros skipped (Descartes' rule bound on positive roots). */
export function signChanges(xs: number[]): number {
  let last = 0
  let n = 0
  for (const x of xs) {
    const s = Math.sign(x)
    if (s === 0) continue
    if (last !== 0 && s !== last) n++
    last = s
  }
  return n
}
