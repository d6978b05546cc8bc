import { handlerFor, assertFinite } from '../../runtime/sdk'
import { cents, clean, readRate } from '../_lib/finance'
import manifest from './manifest'

const MAX_YEARS = 100

export default handlerFor(manifest, (input) => {
  const u = input.rate_unit
  const r = readRate('expected_return', input.expected_return, u, -0.5, 0.5)
  const inf = readRate('inflation', input.inflation, u, -0.2, 0.5, { fallback: 0 })
  const wr = readRate('withdrawal_rate', input.withdrawal_rate, u, 0, 0.5, { openMin: true, fallback: 0.04 })
  const S = input.current_savings ?? 0
  const C = input.annual_contribution ?? 0
  const target = input.annual_spend / wr
  const g = (1 + r) / (1 + inf) - 1

  // closed form for the fractional year count
  let years: number | null
  if (S >= target) years = 0
  else if (Math.abs(g) < 1e-12) years = C > 0 ? (target - S) / C : null
  else {
    const ratio = (target * g + C) / (S * g + C)
    years = ratio > 0 && S * g + C > 0 ? Math.log(ratio) / Math.log1p(g) : null
  }
  if (years !== null && (!Number.isFinite(years) || years < 0 || years > MAX_YEARS)) years = null

  const projection = [
    { year: 0, balance_real: cents(S), balance_nominal: cents(S), progress_pct: clean((S / target) * 100) },
  ]
  let bal = S
  let whole: number | null = S >= target ? 0 : null
  for (let y = 1; whole === null && y <= MAX_YEARS; y++) {
    bal = bal * (1 + g) + C
    projection.push({
      year: y,
      balance_real: cents(bal),
      balance_nominal: cents(bal * (1 + inf) ** y),
      progress_pct: clean((bal / target) * 100),
    })
    if (bal >= target * (1 - 1e-12)) whole = y
  }
  return assertFinite({
    fire_number: cents(target),
    withdrawal_rate: wr,
    real_return: clean(g),
    already_fi: S >= target,
    reachable: whole !== null,
    years_to_fi: years === null ? null : clean(years),
    years_to_fi_whole: whole,
    fire_number_nominal_at_fi: whole === null ? null : cents(target * (1 + inf) ** whole),
    safe_withdrawal_now: cents(S * wr),
    projection,
  })
})
