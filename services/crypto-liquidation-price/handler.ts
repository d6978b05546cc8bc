import { handlerFor, invalid, assertFinite } from '../../runtime/sdk'
import { clean, readRate } from '../_lib/finance'
import manifest from './manifest'

export default handlerFor(
  manifest,
  ({ entry_price: e, leverage: l, side = 'long', maintenance_margin_rate, size, rate_unit }) => {
    const mmr = readRate('maintenance_margin_rate', maintenance_margin_rate, rate_unit, 0, 0.5, { fallback: 0.005 })
    const imr = 1 / l
    if (mmr >= imr)
      throw invalid(
        'maintenance_margin_rate',
        `must be below the initial margin rate 1/leverage = ${clean(imr)}; the position would be liquidated at entry`,
      )
    const long = side === 'long'
    const liq = long ? e * (1 - imr + mmr) : e * (1 + imr - mmr)
    const liqMark = long ? (e * (1 - imr)) / (1 - mmr) : (e * (1 + imr)) / (1 + mmr)
    const notional = size === undefined ? null : e * size
    return assertFinite({
      side,
      liquidation_price: clean(liq),
      liquidation_price_mark_based: clean(liqMark),
      distance_pct: clean((Math.abs(e - liq) / e) * 100),
      initial_margin_rate: clean(imr),
      maintenance_margin_rate: mmr,
      notional: notional === null ? null : clean(notional),
      initial_margin: notional === null ? null : clean(notional * imr),
      maintenance_margin: notional === null ? null : clean(notional * mmr),
      loss_at_liquidation: size === undefined ? null : clean(size * Math.abs(e - liq)),
      formula: long ? 'long: entry × (1 − 1/leverage + mmr)' : 'short: entry × (1 + 1/leverage − mmr)',
    })
  },
)
