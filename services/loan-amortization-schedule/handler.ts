import { handlerFor, invalid, assertFinite } from '../../runtime/sdk'
import { parseDate } from '../_lib/dates'
import { addMonths, readRate, roundTo } from '../_lib/finance'
import manifest from './manifest'

const MAX_MONTHS = 1200

/** Runs the schedule in integer cents; month n (the scheduled last one) clears the balance. */
function run(principalC: number, i: number, paymentC: number, extraC: number, n: number) {
  const rows: Array<{ interest: number; principal: number; extra: number; payment: number; balance: number }> = []
  let bal = principalC
  while (bal > 0 && rows.length < n) {
    const interest = Math.round(bal * i)
    let principal = paymentC - interest
    let extra = extraC
    const last = principal + extra >= bal || rows.length === n - 1
    if (last) {
      extra = Math.max(0, Math.min(extra, bal - Math.max(principal, 0)))
      principal = bal - extra
    }
    bal -= principal + extra
    rows.push({ interest, principal: principal + extra, extra, payment: interest + principal + extra, balance: bal })
  }
  return rows
}

export default handlerFor(manifest, ({ principal, apr, term_years, extra_payment = 0, start_date, rate_unit }) => {
  const rate = readRate('apr', apr, rate_unit, 0, 1)
  const n = Math.round(term_years * 12)
  if (Math.abs(term_years * 12 - n) > 1e-9 || n < 1)
    throw invalid('term_years', 'term_years × 12 must be a whole number of months (at least 1)')
  if (n > MAX_MONTHS) throw invalid('term_years', `at most ${MAX_MONTHS / 12} years (${MAX_MONTHS} months)`)
  const start = start_date !== undefined ? parseDate('start_date', start_date) : null
  const i = rate / 12
  const exact = i === 0 ? principal / n : (principal * i) / (1 - (1 + i) ** -n)
  const pC = Math.round(principal * 100)
  const payC = Math.round(roundTo(exact, 2) * 100)
  const rows = run(pC, i, payC, Math.round(extra_payment * 100), n)
  const base = extra_payment > 0 ? run(pC, i, payC, 0, n) : rows
  const sum = (rs: typeof rows, k: 'interest' | 'payment' | 'extra') => rs.reduce((s, r) => s + r[k], 0)
  const date = (k: number) => (start ? addMonths(start.y, start.m, start.d, k) : null)
  return assertFinite({
    monthly_payment: payC / 100,
    monthly_payment_exact: roundTo(exact, 6),
    scheduled_months: n,
    months_to_payoff: rows.length,
    total_paid: sum(rows, 'payment') / 100,
    total_interest: sum(rows, 'interest') / 100,
    total_extra: sum(rows, 'extra') / 100,
    interest_saved: (sum(base, 'interest') - sum(rows, 'interest')) / 100,
    months_saved: base.length - rows.length,
    first_payment_date: date(1),
    payoff_date: date(rows.length),
    apr: rate,
    monthly_rate: roundTo(i, 12),
    schedule: rows.map((r, k) => ({
      period: k + 1,
      date: date(k + 1),
      payment: r.payment / 100,
      interest: r.interest / 100,
      principal: r.principal / 100,
      extra: r.extra / 100,
      balance: r.balance / 100,
    })),
  })
})
