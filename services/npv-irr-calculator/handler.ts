import { handlerFor, assertFinite } from '../../runtime/sdk'
import { clean, findRoot, readRate, signChanges } from '../_lib/finance'
import manifest from './manifest'

const LO = -0.99
const HI = 100

/** NPV and dNPV/dr with Horner in v = 1/(1+r) (t0 undiscounted). */
function npvAt(cf: number[], r: number): number {
  const v = 1 / (1 + r)
  let s = 0
  for (let t = cf.length - 1; t >= 0; t--) s = s * v + cf[t]
  return s
}
function dNpv(cf: number[], r: number): number {
  let s = 0
  for (let t = 1; t < cf.length; t++) s += (-t * cf[t]) / (1 + r) ** (t + 1)
  return s
}

function allIrrs(cf: number[]): number[] {
  const roots: number[] = []
  const steps = 4000
  const a = Math.log(1 + LO)
  const b = Math.log(1 + HI)
  let prevR = LO
  let prevF = npvAt(cf, LO)
  for (let k = 1; k <= steps; k++) {
    const r = Math.exp(a + ((b - a) * k) / steps) - 1
    const f = npvAt(cf, r)
    if (Number.isFinite(f) && Number.isFinite(prevF)) {
      if (f === 0) roots.push(r)
      else if (prevF !== 0 && Math.sign(f) !== Math.sign(prevF)) {
        const x = findRoot((q) => npvAt(cf, q), prevR, r, { df: (q) => dNpv(cf, q), tol: 1e-15 })
        if (x !== null) roots.push(x)
      }
    }
    prevR = r
    prevF = f
  }
  return roots.map((x) => clean(x))
}

function payback(flows: number[]): number | null {
  if (!(flows[0] < 0)) return null
  let cum = flows[0]
  for (let t = 1; t < flows.length; t++) {
    const next = cum + flows[t]
    if (next >= 0) return clean(t - 1 + -cum / flows[t])
    cum = next
  }
  return null
}

export default handlerFor(manifest, ({ cashflows: cf, discount_rate, rate_unit }) => {
  const r = readRate('discount_rate', discount_rate, rate_unit, -0.99, 1, { fallback: 0 })
  const npv = npvAt(cf, r)
  const pvFuture = npv - cf[0]
  const changes = signChanges(cf)
  const irrs = changes === 0 ? [] : allIrrs(cf)
  const status = irrs.length === 0 ? 'none' : irrs.length === 1 ? 'unique' : 'multiple'
  const notes = [
    'Index 0 is t0 (not discounted); npv_excel_style discounts the first flow by one period like Excel NPV().',
  ]
  if (status === 'none')
    notes.push(changes === 0 ? 'No IRR: the cash flows never change sign.' : 'No IRR in (−99 %, 10,000 %].')
  if (status === 'multiple')
    notes.push(`Several IRRs (${irrs.join(', ')}): IRR is ambiguous for these flows; use NPV or MIRR.`)
  if (status === 'unique' && changes > 1)
    notes.push(`${changes} sign changes: other IRRs may exist outside (−99 %, 10,000 %].`)
  const discounted = cf.map((c, t) => c / (1 + r) ** t)
  const pb = payback(cf)
  if (pb === null)
    notes.push(
      cf[0] < 0
        ? 'The investment is never paid back.'
        : 'Payback and profitability index need a negative CF0 (an initial investment).',
    )
  return assertFinite({
    discount_rate: r,
    npv: clean(npv),
    npv_excel_style: clean(npv / (1 + r)),
    irr: status === 'unique' ? irrs[0] : null,
    irr_pct: status === 'unique' ? clean(irrs[0] * 100) : null,
    irr_status: status,
    irrs,
    sign_changes: changes,
    payback_period: pb,
    discounted_payback_period: payback(discounted),
    profitability_index: cf[0] < 0 ? clean(pvFuture / -cf[0]) : null,
    pv_future_flows: clean(pvFuture),
    notes,
  } as const)
})
