import { handlerFor, invalid, type Static } from '../../runtime/sdk'
import manifest from './manifest'

const need = (v: number | undefined, field: string, op: string) => {
  if (v === undefined) throw invalid(field, `is required for op ${op}`)
  return v
}
const r = (x: number) => Math.round(x * 1e10) / 1e10

export default handlerFor(manifest, (input) => {
  const out = compute(input)
  for (const [k, v] of Object.entries(out))
    if (typeof v === 'number' && !Number.isFinite(v))
      throw invalid(k === 'result' ? 'value' : k, 'the result is outside the range of double-precision numbers')
  return out
})

function compute({ op, from, to, part, whole, value, percent, tip_percent, split = 1 }: Static<typeof manifest.input>) {
  switch (op) {
    case 'percent_of': {
      // With only the spec's `from` and `to`: `from` % of `to`.
      const fromTo = percent === undefined && value === undefined && from !== undefined && to !== undefined
      const base = fromTo ? to : (value ?? need(from, 'value', op)),
        p = fromTo ? from : need(percent, 'percent', op)
      return { op, result: r((base * p) / 100), explanation: `${p}% of ${base}` }
    }
    case 'percent_change': {
      const a = need(from, 'from', op),
        b = need(to, 'to', op)
      if (a === 0) throw invalid('from', 'must not be 0 (the change from 0 is undefined)')
      return {
        op,
        result: r(((b - a) / Math.abs(a)) * 100),
        explanation: `from ${a} to ${b} is a change of ${r(((b - a) / Math.abs(a)) * 100)}%`,
      }
    }
    case 'what_percent': {
      // `part` is X and `whole` is Y in "X is what percent of Y"; the spec's `from` and `to` stand in for them.
      const a = part ?? from,
        b = whole ?? to
      if (a === undefined) throw invalid('part', 'is required for op what_percent: X in "X is what percent of Y"')
      if (b === undefined) throw invalid('whole', 'is required for op what_percent: Y in "X is what percent of Y"')
      if (b === 0) throw invalid(whole !== undefined ? 'whole' : 'to', 'must not be 0')
      const result = r((a / b) * 100)
      return { op, result, part: a, whole: b, explanation: `${a} is ${result}% of ${b}` }
    }
    case 'tip': {
      const bill = value ?? need(from, 'value', op)
      const tip_rate = tip_percent ?? percent ?? to ?? 15
      if (tip_rate < 0 || tip_rate > 1000)
        throw invalid(
          tip_percent !== undefined ? 'tip_percent' : percent !== undefined ? 'percent' : 'to',
          `the tip rate must be between 0 and 1000 percent (got ${tip_rate})`,
        )
      const tip = r((bill * tip_rate) / 100),
        total = r(bill + tip)
      return {
        op,
        result: tip,
        tip,
        total,
        per_person: r(total / split),
        explanation: `${tip_rate}% tip on ${bill}, split ${split} ways`,
      }
    }
    default: {
      const base = need(value, 'value', op),
        p = need(percent, 'percent', op)
      const sign = op === 'add_percent' ? 1 : -1
      return {
        op,
        result: r(base * (1 + (sign * p) / 100)),
        explanation: `${base} ${sign > 0 ? 'plus' : 'minus'} ${p}%`,
      }
    }
  }
}
