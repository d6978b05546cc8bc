import { handlerFor, invalid, assertFinite } from '../../runtime/sdk'
import { pct, readRate, roundTo } from '../_lib/finance'
import manifest from './manifest'
import { ALIASES, RATES, tableDateOf } from './rates'

export default handlerFor(manifest, ({ amount, mode = 'add', region, rate, currency_decimals: d = 2, rate_unit }) => {
  const code = region === undefined ? null : (ALIASES[region] ?? region)
  if (code === 'US' && rate === undefined)
    throw invalid(
      'region',
      'the US has no national sales tax: give a state as US-CA (or "California"), or send the combined rate as `rate`',
    )
  const entry = code === null ? null : (RATES[code] ?? null)
  if (rate === undefined && !entry) throw invalid('region', 'give a region code from the table or a custom rate')
  const r = rate !== undefined ? readRate('rate', rate, rate_unit, 0, 1) : (entry as { pct: number }).pct / 100
  // work in minor units (cents) so net + tax = gross exactly
  const f = 10 ** d
  const a = roundTo(amount * f, 0)
  let net: number
  let tax: number
  let gross: number
  if (mode === 'add') {
    net = a
    tax = roundTo(a * r, 0)
    gross = net + tax
  } else {
    gross = a
    net = roundTo(a / (1 + r), 0)
    tax = gross - net
  }
  return assertFinite({
    mode,
    net: net / f,
    tax: tax / f,
    gross: gross / f,
    rate: roundTo(r, 12),
    rate_pct: pct(r),
    region: code,
    region_name: entry ? entry.name : null,
    tax_name: rate !== undefined ? (entry ? entry.tax : 'sales tax') : (entry as { tax: string }).tax,
    rate_source: rate !== undefined ? 'custom' : 'table',
    table_date: tableDateOf(entry ? code : null),
    currency_decimals: d,
  } as const)
})
