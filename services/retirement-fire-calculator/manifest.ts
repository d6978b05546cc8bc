import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const num = (description: string) => t.Number({ description })
const numOrNull = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'retirement-fire-calculator',
  name: 'FIRE retirement calculator',
  description:
    'Financial-independence (FIRE) target and time to reach it. FIRE number = annual_spend / withdrawal_rate (default 4 %, the Trinity-study "4 % rule", i.e. 25× spending), in today\'s money. Everything is projected in real terms: real return = (1 + expected_return)/(1 + inflation) − 1 (Fisher); the contribution is paid at the end of each year and keeps its purchasing power (grows with inflation in nominal terms). Years to FI solves S(1+g)^n + C((1+g)^n − 1)/g = target (fractional n) and also gives the first whole year the target is met; null when it is never reached within 100 years. Rates are decimals (0.07 = 7 %) unless rate_unit is "percent".',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  input: t.Object(
    {
      current_savings: t.Optional(
        t.Number({ minimum: 0, maximum: 1e13, default: 0, description: 'Invested savings today (≥ 0). Default 0.' }),
      ),
      annual_contribution: t.Optional(
        t.Number({
          minimum: 0,
          maximum: 1e12,
          default: 0,
          description: "Amount invested each year, in today's money (≥ 0). Default 0.",
        }),
      ),
      expected_return: t.Number({
        description: 'Expected nominal annual return (decimal −50 % … 50 %, e.g. 0.07; or percent with rate_unit).',
      }),
      inflation: t.Optional(
        t.Number({
          default: 0,
          description:
            'Expected annual inflation (decimal −20 % … 50 %, e.g. 0.03 = 3 %; or 3 with rate_unit "percent"). Default 0 (then everything is nominal = real).',
        }),
      ),
      annual_spend: t.Number({
        exclusiveMinimum: 0,
        maximum: 1e12,
        description: "Yearly spending in retirement, in today's money (> 0).",
      }),
      withdrawal_rate: t.Optional(
        t.Number({
          description:
            'Safe withdrawal rate (decimal, 0 < rate ≤ 50 %; or percent with rate_unit). Default 0.04 (4 %) when omitted.',
        }),
      ),
      rate_unit: rateUnitField('expected_return, inflation and withdrawal_rate'),
    },
    { additionalProperties: true },
  ),
  aliases: { values: RATE_UNIT_ALIASES },
  output: t.Object({
    fire_number: num("annual_spend / withdrawal_rate, in today's money."),
    withdrawal_rate: num('Withdrawal rate used (decimal).'),
    real_return: num('(1 + expected_return)/(1 + inflation) − 1 (decimal).'),
    already_fi: t.Boolean({ description: 'True when current_savings already meets the FIRE number.' }),
    reachable: t.Boolean({ description: 'False when the target is never reached within 100 years.' }),
    years_to_fi: numOrNull('Fractional years to the FIRE number (closed form); null when not reachable.'),
    years_to_fi_whole: t.Union([t.Integer(), t.Null()], {
      description: 'First whole year-end at which the balance meets the target.',
    }),
    fire_number_nominal_at_fi: numOrNull(
      'The FIRE number in future (nominal) money at years_to_fi_whole: fire_number × (1 + inflation)^years.',
    ),
    safe_withdrawal_now: num('current_savings × withdrawal_rate: what the savings support per year today.'),
    projection: t.Array(
      t.Object({
        year: t.Integer({ description: 'Year-end number (0 = today).' }),
        balance_real: num("Balance in today's money."),
        balance_nominal: num("Balance in that year's money."),
        progress_pct: num('balance_real / fire_number × 100.'),
      }),
      { description: 'Year-end balances until FI (at most 100 years).' },
    ),
  }),
  examples: [
    {
      name: 'Nearly there',
      input: { current_savings: 900000, annual_contribution: 50000, expected_return: 0.05, annual_spend: 40000 },
      output: {
        fire_number: 1000000,
        withdrawal_rate: 0.04,
        real_return: 0.05,
        already_fi: false,
        reachable: true,
        years_to_fi: 1.05130399253,
        years_to_fi_whole: 2,
        fire_number_nominal_at_fi: 1000000,
        safe_withdrawal_now: 36000,
        projection: [
          { year: 0, balance_real: 900000, balance_nominal: 900000, progress_pct: 90 },
          { year: 1, balance_real: 995000, balance_nominal: 995000, progress_pct: 99.5 },
          { year: 2, balance_real: 1094750, balance_nominal: 1094750, progress_pct: 109.475 },
        ],
      },
    },
  ],
})
