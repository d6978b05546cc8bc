import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const num = (description: string) => t.Number({ description })
const numOrNull = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'apr-apy-converter',
  name: 'APR ⇄ APY converter',
  description:
    'Converts a nominal annual rate (APR, compounded m times a year) to the effective annual yield (APY) and back: APY = (1 + APR/m)^m − 1, APR = m((1 + APY)^(1/m) − 1); with continuous: true, APY = e^APR − 1 and APR = ln(1 + APY). Example: 12 % APR compounded monthly = 12.6825 % APY. `rate` is a decimal (0.12 = 12 %) unless rate_unit is "percent"; outputs give both. With `principal`, shows one year of growth.',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      rate: t.Number({ description: 'The rate to convert (decimal, 0 … 1000 %; or percent with rate_unit).' }),
      direction: t.Optional(
        t.Union([t.Literal('apr_to_apy'), t.Literal('apy_to_apr')], {
          default: 'apr_to_apy',
          description: '"apr_to_apy" (default): rate is an APR; "apy_to_apr": rate is an APY.',
        }),
      ),
      compounds_per_year: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: 31_536_000,
          default: 12,
          description:
            'Compounding periods per year: 1, 2, 4, 12 (default), 52, 365, 8760 (hourly) … up to 31,536,000 (every second). Ignored when continuous is true.',
        }),
      ),
      continuous: t.Optional(
        t.Boolean({ default: false, description: 'Continuous compounding instead of compounds_per_year.' }),
      ),
      principal: t.Optional(
        t.Number({ minimum: 0, maximum: 1e15, description: 'Optional amount to project over one year.' }),
      ),
      rate_unit: rateUnitField('rate'),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      mode: 'direction',
      convert: 'direction',
      compounding: 'compounds_per_year',
      periods: 'compounds_per_year',
      periods_per_year: 'compounds_per_year',
    },
    values: {
      ...RATE_UNIT_ALIASES,
      direction: {
        to_apy: 'apr_to_apy',
        to_apr: 'apy_to_apr',
        apr_apy: 'apr_to_apy',
        apy_apr: 'apy_to_apr',
        'apr->apy': 'apr_to_apy',
        'apy->apr': 'apy_to_apr',
      },
    },
  },
  output: t.Object({
    direction: t.String({ description: 'apr_to_apy or apy_to_apr.' }),
    apr: num('Nominal annual rate (decimal).'),
    apy: num('Effective annual yield (decimal).'),
    apr_pct: num('APR in percent.'),
    apy_pct: num('APY in percent.'),
    compounding: t.Union([t.Literal('discrete'), t.Literal('continuous')], { description: 'Compounding used.' }),
    compounds_per_year: t.Union([t.Integer(), t.Null()], { description: 'm, or null for continuous.' }),
    periodic_rate: numOrNull('APR/m per period (decimal), null for continuous.'),
    principal: numOrNull('Principal given, or null.'),
    interest_one_year: numOrNull('principal × APY, or null.'),
    balance_one_year: numOrNull('principal × (1 + APY), or null.'),
    formula: t.String({ description: 'Formula applied.' }),
  }),
  examples: [
    {
      name: '12 % APR compounded monthly',
      input: { rate: 0.12, direction: 'apr_to_apy', compounds_per_year: 12, principal: 1000 },
      output: {
        direction: 'apr_to_apy',
        apr: 0.12,
        apy: 0.126825030132,
        apr_pct: 12,
        apy_pct: 12.6825030132,
        compounding: 'discrete',
        compounds_per_year: 12,
        periodic_rate: 0.01,
        principal: 1000,
        interest_one_year: 126.825030132,
        balance_one_year: 1126.82503013,
        formula: 'APY = (1 + APR/m)^m − 1',
      },
    },
  ],
})
