import { handlerFor, invalid, assertFinite } from '../../runtime/sdk'
import { clean } from '../_lib/finance'
import manifest from './manifest'

export default handlerFor(manifest, ({ price, circulating_supply: circ, max_supply: max, total_supply: total }) => {
  if (max !== undefined && circ > max) throw invalid('circulating_supply', `exceeds max_supply (${circ} > ${max})`)
  if (total !== undefined && circ > total)
    throw invalid('circulating_supply', `exceeds total_supply (${circ} > ${total})`)
  if (max !== undefined && total !== undefined && total > max)
    throw invalid('total_supply', `exceeds max_supply (${total} > ${max})`)
  const basis = max !== undefined ? 'max_supply' : total !== undefined ? 'total_supply' : 'none'
  const supply = max ?? total
  const mc = price * circ
  const has = supply !== undefined
  const s = supply as number
  return assertFinite({
    market_cap: clean(mc),
    fdv: has ? clean(price * s) : null,
    fdv_basis: basis,
    circulating_ratio: has ? clean(circ / s) : null,
    circulating_pct: has ? clean((circ / s) * 100) : null,
    fdv_to_market_cap: has ? clean(s / circ) : null,
    non_circulating_supply: has ? clean(s - circ) : null,
    non_circulating_value: has ? clean((s - circ) * price) : null,
    dilution_if_fully_unlocked_pct: has ? clean(((s - circ) / circ) * 100) : null,
  } as const)
})
