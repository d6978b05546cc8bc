import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const num = (description: string) => t.Number({ description })

export default defineService({
  slug: 'bond-price-yield',
  name: 'Bond price, yield, duration and convexity',
  description:
    'Fixed-coupon bond valued on a coupon date (no accrued interest): give `ytm` to get the price, or `price` to solve the yield to maturity (Newton with a bisection bracket). Price = Σ CF_k/(1+y/m)^k with coupon F·c/m, m = frequency, y quoted as a nominal annual rate compounded m times a year (bond-equivalent yield for m = 2). Returns Macaulay and modified duration in years, convexity in years², DV01 (price change for 1 basis point), current yield, and premium/par/discount. Rates (coupon_rate, ytm) are decimals unless rate_unit is "percent". years_to_maturity × frequency must be a whole number of periods (≤ 1200).',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.004),
  model: 'none',
  input: t.Object(
    {
      face: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 1e12,
          default: 100,
          description: 'Face (par) value repaid at maturity. Default 100.',
        }),
      ),
      coupon_rate: t.Number({
        description:
          'Annual coupon rate (decimal 0 … 1, e.g. 0.05 = 5 %; or percent with rate_unit). 0 for a zero-coupon bond.',
      }),
      years_to_maturity: t.Number({
        exclusiveMinimum: 0,
        maximum: 100,
        description: 'Years to maturity; × frequency must be a whole number of coupon periods.',
      }),
      frequency: t.Optional(
        t.Union([t.Literal(1), t.Literal(2), t.Literal(4), t.Literal(12)], {
          default: 2,
          description: 'Coupons per year: 1, 2 (default), 4 or 12. The yield compounds at the same frequency.',
        }),
      ),
      ytm: t.Optional(
        t.Number({
          description:
            'Yield to maturity (decimal, −50 % … 100 %, e.g. 0.06 = 6 %; or 6 with rate_unit "percent"). Give ytm to price the bond, or price to solve the yield — not both.',
        }),
      ),
      price: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 1e13,
          description: 'Price (same currency units as face, e.g. 92.56 for face 100). Solves for ytm.',
        }),
      ),
      rate_unit: rateUnitField('coupon_rate and ytm'),
    },
    { additionalProperties: true },
  ),
  aliases: { values: RATE_UNIT_ALIASES },
  output: t.Object({
    solved_for: t.Union([t.Literal('price'), t.Literal('ytm')], {
      description: 'Which quantity was computed from the other.',
    }),
    price: num('Price (dirty = clean on a coupon date).'),
    price_pct_of_face: num('Price as a percent of face.'),
    ytm: num('Yield to maturity (decimal, nominal annual, compounded `frequency` times a year).'),
    ytm_pct: num('ytm in percent.'),
    effective_annual_yield: num('(1 + ytm/m)^m − 1 (decimal).'),
    coupon_payment: num('Coupon per period: face × coupon_rate / frequency.'),
    periods: t.Integer({ description: 'Number of coupon periods.' }),
    current_yield: num('Annual coupon / price (decimal).'),
    macaulay_duration: num('Macaulay duration in years.'),
    modified_duration: num('Modified duration in years: Macaulay/(1 + y/m).'),
    convexity: num('Convexity in years² (Σ CF_k·k(k+1)/(1+y/m)^(k+2) / (P·m²)).'),
    dv01: num('Price change for a 1 basis point fall in yield ≈ modified_duration × price × 0.0001.'),
    trades_at: t.Union([t.Literal('premium'), t.Literal('par'), t.Literal('discount')], {
      description: 'Price versus face.',
    }),
  }),
  examples: [
    {
      name: '5 % semiannual 10-year at 6 %',
      input: { face: 100, coupon_rate: 0.05, years_to_maturity: 10, frequency: 2, ytm: 0.06 },
      output: {
        solved_for: 'price',
        price: 92.5612626,
        price_pct_of_face: 92.5612626,
        ytm: 0.06,
        ytm_pct: 6,
        effective_annual_yield: 0.0609,
        coupon_payment: 2.5,
        periods: 20,
        current_yield: 0.054018,
        macaulay_duration: 7.894997,
        modified_duration: 7.665046,
        convexity: 71.785398,
        dv01: 0.070948,
        trades_at: 'discount',
      },
    },
  ],
})
