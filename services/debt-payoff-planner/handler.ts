import { handlerFor, invalid, assertFinite } from '../../runtime/sdk'
import { readRate } from '../_lib/finance'
import manifest from './manifest'

const MAX_MONTHS = 1200
interface D {
  name: string
  bal: number
  apr: number
  min: number
  start: number
  interest: number
  paid: number
  month: number
}

/** Simulates the plan in integer cents. Returns null if not paid within MAX_MONTHS. */
function simulate(input: D[], extraC: number, strategy: 'avalanche' | 'snowball') {
  const ds = input.map((d) => ({ ...d }))
  const order = [...ds].sort((a, b) =>
    strategy === 'avalanche' ? b.apr - a.apr || a.start - b.start : a.start - b.start || b.apr - a.apr,
  )
  const budget = ds.reduce((s, d) => s + d.min, 0) + extraC
  const schedule = []
  const payoffOrder: string[] = []
  for (let m = 1; m <= MAX_MONTHS; m++) {
    let interest = 0
    for (const d of ds) {
      if (d.bal <= 0) continue
      const i = Math.round((d.bal * d.apr) / 12)
      d.bal += i
      d.interest += i
      interest += i
    }
    let left = budget
    const pay = (d: D, amt: number) => {
      const p = Math.min(amt, d.bal, left)
      d.bal -= p
      d.paid += p
      left -= p
    }
    for (const d of ds) if (d.bal > 0) pay(d, d.min)
    for (const d of order) if (d.bal > 0 && left > 0) pay(d, left)
    const done = ds.filter((d) => d.bal === 0 && d.month === 0)
    for (const d of done) {
      d.month = m
      payoffOrder.push(d.name)
    }
    const remaining = ds.reduce((s, d) => s + d.bal, 0)
    schedule.push({
      month: m,
      payment: (budget - left) / 100,
      interest: interest / 100,
      principal: (budget - left - interest) / 100,
      remaining_balance: remaining / 100,
      paid_off: done.map((d) => d.name),
    })
    if (remaining === 0) return { ds, schedule, payoffOrder, budget }
  }
  return null
}

export default handlerFor(manifest, ({ debts, extra_payment = 0, strategy = 'avalanche', rate_unit }) => {
  const names = new Set<string>()
  const ds: D[] = debts.map((d, k) => {
    const name = d.name ?? `Debt ${k + 1}`
    if (names.has(name)) throw invalid(`debts/${k}/name`, `duplicate name "${name}"`)
    names.add(name)
    const bal = Math.round(d.balance * 100)
    return {
      name,
      bal,
      start: bal,
      apr: readRate(`debts/${k}/apr`, d.apr, rate_unit, 0, 1),
      min: Math.round(d.min_payment * 100),
      interest: 0,
      paid: 0,
      month: 0,
    }
  })
  const extraC = Math.round(extra_payment * 100)
  const budget = ds.reduce((s, d) => s + d.min, 0) + extraC
  const firstInterest = ds.reduce((s, d) => s + Math.round((d.bal * d.apr) / 12), 0)
  if (budget <= firstInterest) {
    throw invalid(
      'extra_payment',
      `the monthly budget ${budget / 100} (minimums + extra) does not exceed the first month's interest ${firstInterest / 100}; the debt would never be paid off`,
    )
  }
  const run = simulate(ds, extraC, strategy)
  if (!run)
    throw invalid(
      'extra_payment',
      `the debts are not paid off within ${MAX_MONTHS} months with this budget; raise extra_payment`,
    )
  const other = simulate(ds, extraC, strategy === 'avalanche' ? 'snowball' : 'avalanche')
  const totalInterest = run.ds.reduce((s, d) => s + d.interest, 0)
  const sum = (r: NonNullable<typeof run>) => ({
    months: r.schedule.length,
    total_interest: r.ds.reduce((s, d) => s + d.interest, 0) / 100,
  })
  const mine = sum(run)
  const theirs = other ? sum(other) : { months: null, total_interest: null }
  return assertFinite({
    strategy,
    monthly_budget: budget / 100,
    months_to_payoff: run.schedule.length,
    total_interest: totalInterest / 100,
    total_paid: run.ds.reduce((s, d) => s + d.paid, 0) / 100,
    payoff_order: run.payoffOrder,
    debts: run.ds.map((d) => ({
      name: d.name,
      starting_balance: d.start / 100,
      apr: d.apr,
      min_payment: d.min / 100,
      payoff_month: d.month,
      interest_paid: d.interest / 100,
      total_paid: d.paid / 100,
    })),
    schedule: run.schedule,
    comparison:
      strategy === 'avalanche' ? { avalanche: mine, snowball: theirs } : { avalanche: theirs, snowball: mine },
  })
})
