import { handlerFor, invalid, assertFinite } from '../../runtime/sdk'
import { clean, findRoot, readRate } from '../_lib/finance'
import manifest from './manifest'

/** Price and its derivative-based measures at nominal yield y (m periods a year, n periods, coupon c per period). */
function measures(face: number, c: number, n: number, m: number, y: number) {
  const v = 1 / (1 + y / m)
  let price = 0
  let dsum = 0
  let csum = 0
  for (let k = 1; k <= n; k++) {
    const cf = c + (k === n ? face : 0)
    const pv = cf * v ** k
    price += pv
    dsum += k * pv
    csum += cf * k * (k + 1) * v ** (k + 2)
  }
  const macaulay = dsum / price / m
  return { price, macaulay, modified: macaulay * v, convexity: csum / (price * m * m) }
}

export default handlerFor(
  manifest,
  ({ face = 100, coupon_rate, years_to_maturity, frequency = 2, ytm, price, rate_unit }) => {
    const m = frequency
    const n = Math.round(years_to_maturity * m)
    if (Math.abs(years_to_maturity * m - n) > 1e-9 || n < 1)
      throw invalid(
        'years_to_maturity',
        `must be a whole number of coupon periods (years × ${m}); valuation is on a coupon date`,
      )
    if (n > 1200) throw invalid('years_to_maturity', 'at most 1200 coupon periods')
    const cr = readRate('coupon_rate', coupon_rate, rate_unit, 0, 1)
    const c = (face * cr) / m
    if ((ytm === undefined) === (price === undefined))
      throw invalid(
        ytm === undefined ? 'ytm' : 'price',
        'give exactly one of ytm (to get the price) or price (to get the yield)',
      )
    let y: number
    if (ytm !== undefined) y = readRate('ytm', ytm, rate_unit, -0.5, 1)
    else {
      const p = price as number
      const lo = -0.5
      const hi = 1
      const f = (yy: number) => measures(face, c, n, m, yy).price - p
      if (f(lo) < 0 || f(hi) > 0) {
        throw invalid(
          'price',
          `${p} implies a yield outside [−50 %, 100 %] (price range ${clean(measures(face, c, n, m, hi).price)} … ${clean(measures(face, c, n, m, lo).price)})`,
        )
      }
      const df = (yy: number) => -measures(face, c, n, m, yy).modified * measures(face, c, n, m, yy).price
      const root = findRoot(f, lo, hi, { df, guess: cr || 0.05, tol: 1e-15 })
      if (root === null) throw invalid('price', 'no yield matches this price')
      y = root
    }
    const r = measures(face, c, n, m, y)
    const rel = (r.price - face) / face
    return assertFinite({
      solved_for: ytm !== undefined ? 'price' : 'ytm',
      price: clean(r.price),
      price_pct_of_face: clean((r.price / face) * 100),
      ytm: clean(y),
      ytm_pct: clean(y * 100),
      effective_annual_yield: clean((1 + y / m) ** m - 1),
      coupon_payment: clean(c),
      periods: n,
      current_yield: clean((c * m) / r.price),
      macaulay_duration: clean(r.macaulay),
      modified_duration: clean(r.modified),
      convexity: clean(r.convexity),
      dv01: clean(r.modified * r.price * 0.0001),
      trades_at: Math.abs(rel) < 1e-9 ? 'par' : rel > 0 ? 'premium' : 'discount',
    } as const)
  },
)
