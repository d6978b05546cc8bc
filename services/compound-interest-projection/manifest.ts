import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const money = (description: string) => t.Number({ description })

export default defineService({
  slug: 'compound-interest-projection',
  name: 'Compound interest projection',
  description:
    'Future value of a starting balance plus a fixed contribution per compounding period: balance_k = P(1+i)^k + C·((1+i)^k − 1)/i (× (1+i) when contributions are at the start of the period), i = annual_rate/compounds_per_year. Returns the final balance, total contributed, total interest, the effective annual rate and a year-by-year balance curve. annual_rate is a decimal (0.05 = 5 %) unless rate_unit is "percent". years × compounds_per_year must be a whole number of periods (at most 36,500).',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      principal: t.Optional(
        t.Number({ minimum: 0, maximum: 1e12, default: 0, description: 'Starting balance (≥ 0). Default 0.' }),
      ),
      annual_rate: t.Number({
        description: 'Nominal annual interest rate (decimal, −99 % … 100 %; or percent with rate_unit).',
      }),
      years: t.Number({ exclusiveMinimum: 0, maximum: 100, description: 'Horizon in years (≤ 100).' }),
      compounds_per_year: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: 365,
          default: 12,
          description:
            'Compounding periods per year: 1 annual, 4 quarterly, 12 monthly (default), 52 weekly, 365 daily.',
        }),
      ),
      contribution: t.Optional(
        t.Number({
          minimum: 0,
          maximum: 1e12,
          default: 0,
          description: 'Amount added every compounding period (e.g. monthly with compounds_per_year 12). Default 0.',
        }),
      ),
      contribution_timing: t.Optional(
        t.Union([t.Literal('end'), t.Literal('start')], {
          default: 'end',
          description:
            'Contributions at the "end" (default, ordinary annuity) or "start" (annuity due) of each period.',
        }),
      ),
      rate_unit: rateUnitField('annual_rate'),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      amount: 'principal',
      initial: 'principal',
      initial_investment: 'principal',
      rate: 'annual_rate',
      interest_rate: 'annual_rate',
      apr: 'annual_rate',
      term_years: 'years',
      term: 'years',
    },
    values: RATE_UNIT_ALIASES,
  },
  output: t.Object({
    final_balance: money('Balance at the end of the horizon (rounded to cents).'),
    total_contributed: money('principal + all contributions.'),
    total_interest: money('final_balance − total_contributed.'),
    periods: t.Integer({ description: 'years × compounds_per_year.' }),
    periodic_rate: money('annual_rate / compounds_per_year (decimal).'),
    effective_annual_rate: money('(1 + i)^m − 1 (decimal).'),
    effective_annual_rate_pct: money('Effective annual rate in percent.'),
    curve: t.Array(
      t.Object({
        year: t.Number({ description: 'Years elapsed (the last point may be fractional).' }),
        balance: money('Balance at that time.'),
        contributed: money('principal + contributions so far.'),
        interest: money('Interest earned so far.'),
      }),
      { description: 'Balance at every year end (plus the horizon when it is not a whole year); year 0 first.' },
    ),
  }),
  examples: [
    {
      name: 'Wikipedia: $1,500 at 4.3 % quarterly for 6 years',
      input: { principal: 1500, annual_rate: 0.043, years: 6, compounds_per_year: 4 },
      output: {
        final_balance: 1938.84,
        total_contributed: 1500,
        total_interest: 438.84,
        periods: 24,
        periodic_rate: 0.01075,
        effective_annual_rate: 0.0436983575422,
        effective_annual_rate_pct: 4.36983575422,
        curve: [
          { year: 0, balance: 1500, contributed: 1500, interest: 0 },
          { year: 1, balance: 1565.55, contributed: 1500, interest: 65.55 },
          { year: 2, balance: 1633.96, contributed: 1500, interest: 133.96 },
          { year: 3, balance: 1705.36, contributed: 1500, interest: 205.36 },
          { year: 4, balance: 1779.88, contributed: 1500, interest: 279.88 },
          { year: 5, balance: 1857.66, contributed: 1500, interest: 357.66 },
          { year: 6, balance: 1938.84, contributed: 1500, interest: 438.84 },
        ],
      },
    },
  ],
})
