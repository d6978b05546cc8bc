import { handlerFor, assertFinite } from '../../runtime/sdk'
import { clean } from '../_lib/finance'
import manifest from './manifest'

export default handlerFor(manifest, ({ price_ratio: r, initial_value: v = 1000, fees_earned = 0 }) => {
  const s = Math.sqrt(r)
  const il = (2 * s) / (1 + r) - 1
  const hodl = (v * (1 + r)) / 2
  const lp = v * s
  const net = lp + fees_earned - hodl
  return assertFinite({
    price_ratio: r,
    impermanent_loss: clean(il),
    impermanent_loss_pct: clean(il * 100),
    hodl_value: clean(hodl),
    lp_value: clean(lp),
    lp_value_with_fees: clean(lp + fees_earned),
    loss_vs_hodl: clean(lp - hodl),
    net_vs_hodl: clean(net),
    net_vs_hodl_pct: hodl === 0 ? null : clean((net / hodl) * 100),
    fees_to_break_even: clean(Math.max(0, -net)),
    pool_composition: { token_share_of_initial: clean(1 / s), quote_share_of_initial: clean(s) },
  })
})
