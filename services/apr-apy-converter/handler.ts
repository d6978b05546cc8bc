import { handlerFor, assertFinite } from '../../runtime/sdk'
import { clean, readRate } from '../_lib/finance'
import manifest from './manifest'

export default handlerFor(
  manifest,
  ({ rate, direction = 'apr_to_apy', compounds_per_year: m = 12, continuous = false, principal, rate_unit }) => {
    const toApy = direction === 'apr_to_apy'
    const x = readRate('rate', rate, rate_unit, 0, 10)
    let apr: number
    let apy: number
    if (continuous) {
      apr = toApy ? x : Math.log1p(x)
      apy = toApy ? Math.expm1(x) : x
    } else {
      // log1p/expm1 keep precision for tiny rates and very frequent compounding
      apr = toApy ? x : m * Math.expm1(Math.log1p(x) / m)
      apy = toApy ? Math.expm1(m * Math.log1p(x / m)) : x
    }
    const formula = continuous
      ? toApy
        ? 'APY = e^APR − 1'
        : 'APR = ln(1 + APY)'
      : toApy
        ? 'APY = (1 + APR/m)^m − 1'
        : 'APR = m((1 + APY)^(1/m) − 1)'
    return assertFinite({
      direction,
      apr: clean(apr),
      apy: clean(apy),
      apr_pct: clean(apr * 100),
      apy_pct: clean(apy * 100),
      compounding: continuous ? 'continuous' : 'discrete',
      compounds_per_year: continuous ? null : m,
      periodic_rate: continuous ? null : clean(apr / m),
      principal: principal ?? null,
      interest_one_year: principal === undefined ? null : clean(principal * apy),
      balance_one_year: principal === undefined ? null : clean(principal * (1 + apy)),
      formula,
    } as const)
  },
)
