import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const num = (description: string) => t.Number({ description })
const numOrNull = (description: string) => t.Union([t.Number(), t.Null()], { description })
const intOrNull = (description: string) => t.Union([t.Integer(), t.Null()], { description })

export default defineService({
  slug: 'return-cagr-drawdown',
  name: 'Return, CAGR, volatility, Sharpe and max drawdown',
  description:
    'Performance statistics of an equally spaced series of prices or portfolio values (or of period returns with series_type "returns"). Period returns r_t = V_t/V_(t−1) − 1. CAGR = (V_last/V_first)^(periods_per_year/(n−1)) − 1. Annualized volatility = SAMPLE standard deviation (n − 1 denominator) of period returns × √periods_per_year. Sharpe = (mean period return − risk_free/periods_per_year) / sample stdev × √periods_per_year (arithmetic, risk_free an annual decimal). Max drawdown = the largest peak-to-trough fall (V_trough/V_peak − 1, ≤ 0) with peak, trough and recovery indices (0-based). Calmar = CAGR/|max drawdown|.',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      series: t.Array(t.Number({ minimum: -1e15, maximum: 1e15 }), {
        minItems: 2,
        maxItems: 20_000,
        description:
          'Values (prices, NAV, equity) in time order, all > 0; or period returns as decimals (> −1) with series_type "returns". 2 to 20,000 items.',
      }),
      series_type: t.Optional(
        t.Union([t.Literal('values'), t.Literal('returns')], {
          default: 'values',
          description:
            '"values" (default): prices or portfolio values; "returns": simple period returns (0.01 = 1 %), compounded from 1.',
        }),
      ),
      periods_per_year: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 525_600,
          default: 252,
          description:
            'Observations per year: 252 trading days (default), 365 calendar days, 52 weeks, 12 months, 1 year.',
        }),
      ),
      risk_free: t.Optional(
        t.Number({
          default: 0,
          description:
            'Annual risk-free rate for Sharpe (decimal, −10 % … 100 %; or percent with rate_unit). Default 0.',
        }),
      ),
      rate_unit: rateUnitField('risk_free'),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: { values: 'series', prices: 'series', data: 'series', rf: 'risk_free', risk_free_rate: 'risk_free' },
    values: RATE_UNIT_ALIASES,
  },
  output: t.Object({
    observations: t.Integer({ description: 'Number of values (returns + 1).' }),
    periods: t.Integer({ description: 'Number of period returns.' }),
    years: num('periods / periods_per_year.'),
    total_return: num('V_last/V_first − 1 (decimal).'),
    total_return_pct: num('total_return in percent.'),
    cagr: num('Compound annual growth rate (decimal).'),
    cagr_pct: num('CAGR in percent.'),
    mean_period_return: num('Arithmetic mean of period returns.'),
    period_volatility: numOrNull('Sample stdev of period returns (null with fewer than 2 returns).'),
    annualized_volatility: numOrNull('period_volatility × √periods_per_year.'),
    annualized_volatility_pct: numOrNull('annualized_volatility in percent.'),
    sharpe_ratio: numOrNull('Annualized Sharpe ratio (null when volatility is 0 or undefined).'),
    max_drawdown: num('Largest peak-to-trough decline as a fraction (≤ 0).'),
    max_drawdown_pct: num('max_drawdown in percent.'),
    peak_index: intOrNull('0-based index of the peak before the max drawdown (null when there is none).'),
    trough_index: intOrNull('0-based index of the trough.'),
    recovery_index: intOrNull('First index after the trough where the value regains the peak (null if not recovered).'),
    drawdown_length: intOrNull('trough_index − peak_index, in periods.'),
    calmar_ratio: numOrNull('CAGR / |max_drawdown| (null without a drawdown).'),
    conventions: t.String({ description: 'Conventions used.' }),
  }),
  examples: [
    {
      name: 'Investopedia drawdown example',
      input: { series: [500000, 750000, 400000, 600000, 350000, 800000], periods_per_year: 1 },
      output: {
        observations: 6,
        periods: 5,
        years: 5,
        total_return: 0.6,
        total_return_pct: 60,
        cagr: 0.0985605433,
        cagr_pct: 9.85605433,
        mean_period_return: 0.280476190476,
        period_volatility: 0.733334106369,
        annualized_volatility: 0.733334106369,
        annualized_volatility_pct: 73.3334106369,
        sharpe_ratio: 0.382467129294,
        max_drawdown: -0.533333333333,
        max_drawdown_pct: -53.3333333333,
        peak_index: 1,
        trough_index: 4,
        recovery_index: 5,
        drawdown_length: 3,
        calmar_ratio: 0.184801018699,
        conventions:
          'sample stdev (n−1) × √periods_per_year; Sharpe arithmetic with risk_free/periods_per_year per period; indices 0-based',
      },
    },
  ],
})
