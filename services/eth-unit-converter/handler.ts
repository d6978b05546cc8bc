import { handlerFor } from '../../runtime/sdk'
import { ETH_UNITS, formatUnits, parseDec, toUnits } from '../_lib/finance-units'
import manifest from './manifest'

export default handlerFor(manifest, ({ amount, from_unit, to_unit, decimals = 18, usd_price, rounding = 'exact' }) => {
  const exp = (u: string) => (u === 'base' ? 0 : u === 'token' ? decimals : ETH_UNITS[u as keyof typeof ETH_UNITS])
  const dec = parseDec('amount', amount)
  const { units, rounded } = toUnits('amount', dec, exp(from_unit), rounding, 'base unit (wei)')
  const token_amount = formatUnits(units, decimals)
  // The USD value is the only floating-point step, kept apart from the exact conversion.
  const usd = usd_price === undefined ? null : Number(token_amount) * usd_price
  return {
    amount: formatUnits(dec.digits, dec.scale),
    from_unit,
    to_unit,
    decimals,
    result: formatUnits(units, exp(to_unit)),
    base_units: units.toString(),
    token_amount,
    rounded,
    usd_value: usd,
    usd_value_note: usd === null ? null : 'approximate: token_amount × usd_price in double-precision floating point',
  }
})
