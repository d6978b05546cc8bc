import { handlerFor, assertFinite } from '../../runtime/sdk'
import { clean, readRate } from '../_lib/finance'
import manifest from './manifest'

/** Expected log-growth per bet when staking fraction f. */
function growth(p: number, b: number, f: number): number {
  const win = p === 0 ? 0 : p * Math.log1p(f * b)
  const lose = p === 1 ? 0 : (1 - p) * Math.log1p(-f)
  return win + lose
}

export default handlerFor(
  manifest,
  ({ win_prob, win_loss_ratio: b, bankroll, kelly_fraction: k = 1, fixed_fraction: ff, risk_per_unit, rate_unit }) => {
    const p = readRate('win_prob', win_prob, rate_unit, 0, 1)
    const fixed_fraction = readRate('fixed_fraction', ff, rate_unit, 0, 1, { openMin: true, fallback: 0.02 })
    const full = p - (1 - p) / b
    const bet = full > 0
    const applied = bet ? full * k : 0
    const risk = bankroll === undefined ? null : bankroll * fixed_fraction
    return assertFinite({
      kelly_full: clean(full),
      kelly_full_pct: clean(full * 100),
      edge: clean(p * b - (1 - p)),
      recommendation: bet ? 'bet' : 'no_bet',
      kelly_fraction: k,
      applied_fraction: clean(applied),
      applied_fraction_pct: clean(applied * 100),
      half_kelly: clean(bet ? full / 2 : 0),
      stake: bankroll === undefined ? null : clean(bankroll * applied),
      growth_rate_full: bet ? clean(growth(p, b, full)) : null,
      growth_rate_applied: clean(growth(p, b, applied)),
      fixed_fractional: {
        fraction: fixed_fraction,
        risk_amount: risk === null ? null : clean(risk),
        units: risk !== null && risk_per_unit !== undefined ? Math.floor(risk / risk_per_unit + 1e-9) : null,
      },
    } as const)
  },
)
