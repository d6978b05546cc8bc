import { handlerFor, invalid, assertFinite } from '../../runtime/sdk'
import { cents, clean, readRate } from '../_lib/finance'
import manifest from './manifest'

export default handlerFor(
  manifest,
  ({
    principal = 0,
    annual_rate,
    years,
    compounds_per_year = 12,
    contribution = 0,
    contribution_timing = 'end',
    rate_unit,
  }) => {
    const rate = readRate('annual_rate', annual_rate, rate_unit, -0.99, 1)
    const m = compounds_per_year
    const n = Math.round(years * m)
    if (Math.abs(years * m - n) > 1e-9 || n < 1)
      throw invalid('years', `years × compounds_per_year must be a whole number of periods (got ${years * m})`)
    if (n > 36_500) throw invalid('years', 'at most 36,500 compounding periods')
    const i = rate / m
    const due = contribution_timing === 'start' ? 1 + i : 1
    const at = (k: number) => {
      const g = (1 + i) ** k
      const annuity = i === 0 ? k : (g - 1) / i
      return principal * g + contribution * annuity * due
    }
    const point = (k: number) => {
      const balance = cents(at(k))
      const contributed = cents(principal + contribution * k)
      return { year: clean(k / m), balance, contributed, interest: cents(balance - contributed) }
    }
    const curve = []
    for (let y = 0; y * m < n; y++) curve.push(point(y * m))
    curve.push(point(n))
    const last = curve[curve.length - 1]
    const ear = (1 + i) ** m - 1
    return assertFinite({
      final_balance: last.balance,
      total_contributed: last.contributed,
      total_interest: last.interest,
      periods: n,
      periodic_rate: clean(i),
      effective_annual_rate: clean(ear),
      effective_annual_rate_pct: clean(ear * 100),
      curve,
    })
  },
)
