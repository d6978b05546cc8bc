import { handlerFor } from '../../runtime/sdk'
import { ETH_UNITS, formatUnits, parseDec, toUnits, type EthUnit } from '../_lib/finance-units'
import manifest from './manifest'

export default handlerFor(manifest, ({ value, from, to, rounding = 'exact' }) => {
  const dec = parseDec('value', value)
  // integer wei: value × 10^decimals(from), exact or rounded as asked
  const { units: wei, rounded } = toUnits(
    'value',
    { digits: dec.digits, scale: dec.scale },
    ETH_UNITS[from as EthUnit],
    rounding,
    'wei',
  )
  const all = Object.fromEntries(Object.entries(ETH_UNITS).map(([u, e]) => [u, formatUnits(wei, e)])) as Record<
    EthUnit,
    string
  >
  return {
    value: formatUnits(dec.digits, dec.scale),
    from,
    to,
    result: all[to as EthUnit],
    wei: all.wei,
    rounded,
    units: all,
  }
})
