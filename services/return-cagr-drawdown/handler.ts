import { handlerFor, invalid, assertFinite } from '../../runtime/sdk'
import { clean, readRate } from '../_lib/finance'
import manifest from './manifest'

function drawdown(v: number[]) {
  let peak = 0
  let best = { dd: 0, peak: -1, trough: -1 }
  for (let i = 1; i < v.length; i++) {
    if (v[i] > v[peak]) peak = i
    const dd = v[i] / v[peak] - 1
    if (dd < best.dd) best = { dd, peak, trough: i }
  }
  let recovery: number | null = null
  if (best.trough >= 0) {
    for (let i = best.trough + 1; i < v.length; i++)
      if (v[i] >= v[best.peak]) {
        recovery = i
        break
      }
  }
  return { ...best, recovery }
}

export default handlerFor(
  manifest,
  ({ series, series_type = 'values', periods_per_year: ppy = 252, risk_free, rate_unit }) => {
    const rf = readRate('risk_free', risk_free, rate_unit, -0.1, 1, { fallback: 0 })
    let v: number[]
    if (series_type === 'returns') {
      v = [1]
      series.forEach((r, i) => {
        if (!(r > -1)) throw invalid(`series/${i}`, `return ${r} must be greater than −1 (−100 %)`)
        v.push(v[i] * (1 + r))
      })
    } else {
      series.forEach((x, i) => {
        if (!(x > 0))
          throw invalid(
            `series/${i}`,
            `value ${x} must be > 0 (prices or portfolio values); send series_type "returns" for returns`,
          )
      })
      v = series
    }
    const rets = v.slice(1).map((x, i) => x / v[i] - 1)
    const n = rets.length
    const mean = rets.reduce((s, r) => s + r, 0) / n
    const sd = n >= 2 ? Math.sqrt(rets.reduce((s, r) => s + (r - mean) ** 2, 0) / (n - 1)) : null
    const years = n / ppy
    const total = v[n] / v[0] - 1
    const cagr = (v[n] / v[0]) ** (1 / years) - 1
    const dd = drawdown(v)
    const annVol = sd === null ? null : sd * Math.sqrt(ppy)
    const c = (x: number | null) => (x === null ? null : clean(x))
    return assertFinite({
      observations: v.length,
      periods: n,
      years: clean(years),
      total_return: clean(total),
      total_return_pct: clean(total * 100),
      cagr: clean(cagr),
      cagr_pct: clean(cagr * 100),
      mean_period_return: clean(mean),
      period_volatility: c(sd),
      annualized_volatility: c(annVol),
      annualized_volatility_pct: c(annVol === null ? null : annVol * 100),
      sharpe_ratio: sd ? clean(((mean - rf / ppy) / sd) * Math.sqrt(ppy)) : null,
      max_drawdown: clean(dd.dd),
      max_drawdown_pct: clean(dd.dd * 100),
      peak_index: dd.peak >= 0 ? dd.peak : null,
      trough_index: dd.trough >= 0 ? dd.trough : null,
      recovery_index: dd.recovery,
      drawdown_length: dd.peak >= 0 ? dd.trough - dd.peak : null,
      calmar_ratio: dd.dd < 0 ? clean(cagr / -dd.dd) : null,
      conventions:
        'sample stdev (n−1) × √periods_per_year; Sharpe arithmetic with risk_free/periods_per_year per period; indices 0-based',
    })
  },
)
