import { handlerFor, assertFinite } from '../../runtime/sdk'
import { clean, readRate } from '../_lib/finance'
import manifest from './manifest'

export default handlerFor(
  manifest,
  ({ entry_price: e, exit_price: x, size, side = 'long', leverage = 1, fee_rate, rate_unit }) => {
    const f = readRate('fee_rate', fee_rate, rate_unit, 0, 0.02, { fallback: 0 })
    const dir = side === 'long' ? 1 : -1
    const entryN = e * size
    const exitN = x * size
    const margin = entryN / leverage
    const gross = dir * (exitN - entryN)
    const entryFee = f * entryN
    const exitFee = f * exitN
    const net = gross - entryFee - exitFee
    // long: size·(p − e) − f·size·(e + p) = 0 → p = e(1+f)/(1−f); short: p = e(1−f)/(1+f)
    const be = dir === 1 ? (e * (1 + f)) / (1 - f) : (e * (1 - f)) / (1 + f)
    return assertFinite({
      side,
      entry_notional: clean(entryN),
      exit_notional: clean(exitN),
      margin: clean(margin),
      gross_pnl: clean(gross),
      entry_fee: clean(entryFee),
      exit_fee: clean(exitFee),
      total_fees: clean(entryFee + exitFee),
      net_pnl: clean(net),
      roi_pct: clean((net / margin) * 100),
      gross_roi_pct: clean((gross / margin) * 100),
      price_change_pct: clean(((x - e) / e) * 100),
      break_even_price: clean(be),
    })
  },
)
