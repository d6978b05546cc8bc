import { handlerFor, invalid, ServiceError, assertFinite } from '../../runtime/sdk'
import { clean } from '../_lib/finance'
import manifest from './manifest'

type In = Record<string, number | undefined>
type Def = [
  name: string,
  formula: string,
  needs: string[],
  num: (x: Record<string, number>) => number,
  den: string,
  isFraction: boolean,
]

const DEFS: Def[] = [
  [
    'current_ratio',
    'current_assets / current_liabilities',
    ['current_assets', 'current_liabilities'],
    (x) => x.current_assets,
    'current_liabilities',
    false,
  ],
  [
    'quick_ratio',
    '(current_assets − inventory) / current_liabilities',
    ['current_assets', 'inventory', 'current_liabilities'],
    (x) => x.current_assets - x.inventory,
    'current_liabilities',
    false,
  ],
  [
    'debt_to_equity',
    'total_debt / total_equity',
    ['total_debt', 'total_equity'],
    (x) => x.total_debt,
    'total_equity',
    false,
  ],
  [
    'debt_ratio',
    'total_debt / total_assets',
    ['total_debt', 'total_assets'],
    (x) => x.total_debt,
    'total_assets',
    true,
  ],
  [
    'equity_multiplier',
    'total_assets / total_equity',
    ['total_assets', 'total_equity'],
    (x) => x.total_assets,
    'total_equity',
    false,
  ],
  ['gross_margin', '(revenue − cogs) / revenue', ['revenue', 'cogs'], (x) => x.revenue - x.cogs, 'revenue', true],
  ['operating_margin', 'ebit / revenue', ['ebit', 'revenue'], (x) => x.ebit, 'revenue', true],
  ['net_margin', 'net_income / revenue', ['net_income', 'revenue'], (x) => x.net_income, 'revenue', true],
  ['roa', 'net_income / total_assets', ['net_income', 'total_assets'], (x) => x.net_income, 'total_assets', true],
  ['roe', 'net_income / total_equity', ['net_income', 'total_equity'], (x) => x.net_income, 'total_equity', true],
  ['asset_turnover', 'revenue / total_assets', ['revenue', 'total_assets'], (x) => x.revenue, 'total_assets', false],
  [
    'interest_coverage',
    'ebit / interest_expense',
    ['ebit', 'interest_expense'],
    (x) => x.ebit,
    'interest_expense',
    false,
  ],
]

export default handlerFor(manifest, (input) => {
  const x = input as In
  if (x.inventory !== undefined && x.current_assets !== undefined && x.inventory > x.current_assets)
    throw invalid('inventory', 'cannot exceed current_assets')
  const ratios: Record<
    string,
    { value: number | null; percent: number | null; formula: string; reason: string | null }
  > = {}
  let computed = 0
  for (const [name, formula, needs, num, den, isFraction] of DEFS) {
    const missing = needs.filter((k) => x[k] === undefined)
    let value: number | null = null
    let reason: string | null = null
    if (missing.length) reason = `missing ${missing.join(', ')}`
    else if (x[den] === 0) reason = `${den} is 0 (division by zero)`
    else value = clean(num(x as Record<string, number>) / (x[den] as number))
    if (value !== null) computed++
    ratios[name] = { value, percent: value !== null && isFraction ? clean(value * 100) : null, formula, reason }
  }
  if (computed === 0)
    throw new ServiceError(
      422,
      'INVALID_INPUT',
      'No ratio can be computed: give at least a numerator and a non-zero denominator (e.g. current_assets and current_liabilities)',
      { details: [{ path: '/', message: 'not enough figures' }] },
    )
  const warnings: string[] = []
  if (x.total_equity !== undefined && x.total_equity < 0)
    warnings.push(
      'total_equity is negative: debt_to_equity, equity_multiplier and roe have inverted signs and are not meaningful.',
    )
  return assertFinite({ ratios: ratios as never, computed, warnings })
})
