import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const num = (description: string) => t.Number({ description })
const numOrNull = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'npv-irr-calculator',
  name: 'NPV and IRR calculator',
  description:
    'Net present value, internal rate of return, payback and profitability index of a series of periodic cash flows. Index 0 is t0 (undiscounted, today): NPV = Σ CF_t/(1+r)^t for t = 0…N (numpy-financial convention); the Excel NPV() value, which discounts the first flow by one period, is given too as npv_excel_style = NPV/(1+r). IRR: every root of NPV(r) = 0 in (−99 %, 10,000 %] is found by scanning for sign changes and refining each bracket with safeguarded Newton; irr is set only when exactly one exists, irr_status says "unique", "multiple" or "none", and sign_changes bounds the number of IRRs (Descartes). Rates are decimals unless rate_unit is "percent".',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  input: t.Object(
    {
      cashflows: t.Array(t.Number({ minimum: -1e15, maximum: 1e15 }), {
        minItems: 2,
        maxItems: 1000,
        description: 'Cash flows per period, index 0 = t0 (today, usually the negative investment). 2 to 1000 numbers.',
      }),
      discount_rate: t.Optional(
        t.Number({
          description:
            'Discount rate per period (decimal −99 % … 100 %, or percent with rate_unit). Required for NPV, discounted payback and profitability index; default 0.',
        }),
      ),
      rate_unit: rateUnitField('discount_rate'),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: { cash_flows: 'cashflows', flows: 'cashflows', rate: 'discount_rate', discount: 'discount_rate' },
    values: RATE_UNIT_ALIASES,
  },
  output: t.Object({
    discount_rate: num('Discount rate used (decimal).'),
    npv: num('NPV with index 0 at t0 (not discounted).'),
    npv_excel_style: num('Excel NPV(): every flow discounted one extra period, = npv/(1+r).'),
    irr: numOrNull('The IRR (decimal) when exactly one exists; null otherwise (see irrs).'),
    irr_pct: numOrNull('irr in percent.'),
    irr_status: t.Union([t.Literal('unique'), t.Literal('multiple'), t.Literal('none')], {
      description: 'How many IRRs were found in (−99 %, 10,000 %].',
    }),
    irrs: t.Array(t.Number(), { description: 'Every IRR found, ascending (decimals).' }),
    sign_changes: t.Integer({ description: 'Sign changes in the cash flows; an upper bound on the number of IRRs.' }),
    payback_period: numOrNull(
      'Periods until the cumulative cash flow first reaches 0, interpolated linearly inside the period; null when CF0 ≥ 0 or never recovered.',
    ),
    discounted_payback_period: numOrNull('Same with flows discounted at discount_rate.'),
    profitability_index: numOrNull('PV of flows t ≥ 1 divided by −CF0; null when CF0 ≥ 0.'),
    pv_future_flows: num('PV of flows t ≥ 1.'),
    notes: t.Array(t.String(), { description: 'Conventions and warnings (multiple IRRs, no IRR, missing payback).' }),
  }),
  examples: [
    {
      name: 'Four-year project at 10 %',
      input: { cashflows: [-100, 39, 59, 55, 20], discount_rate: 0.1 },
      output: {
        discount_rate: 0.1,
        npv: 39.1974591899,
        npv_excel_style: 35.634053809,
        irr: 0.28094842116,
        irr_pct: 28.094842116,
        irr_status: 'unique',
        irrs: [0.28094842116],
        sign_changes: 1,
        payback_period: 2.03636363636,
        discounted_payback_period: 2.382,
        profitability_index: 1.3919745919,
        pv_future_flows: 139.19745919,
        notes: [
          'Index 0 is t0 (not discounted); npv_excel_style discounts the first flow by one period like Excel NPV().',
        ],
      },
    },
  ],
})
