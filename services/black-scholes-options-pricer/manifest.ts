import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const n = (description: string) => t.Number({ description })

export default defineService({
  slug: 'black-scholes-options-pricer',
  name: 'Black-Scholes option pricer',
  description:
    'Prices a European call or put with Black-Scholes-Merton (Hull, Options, Futures and Other Derivatives, ch. 15 and 19) and returns the Greeks with explicit units: delta, gamma, vega per 1.00 of volatility and per 1 volatility point, theta per year and per calendar day (/365), rho per 1.00 of rate and per 1 percentage point. Time is days_to_expiry/365 (or years_to_expiry). Rates are continuously compounded decimals (or percents with rate_unit). With `market_price`, solves for the implied volatility (Newton on vega with a bisection bracket in (0, 1000 %]); a price outside the no-arbitrage bounds is a 422.',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.005),
  model: 'none',
  input: t.Object(
    {
      spot: t.Number({ exclusiveMinimum: 0, maximum: 1e12, description: 'Underlying price S (> 0).' }),
      strike: t.Number({ exclusiveMinimum: 0, maximum: 1e12, description: 'Strike price K (> 0).' }),
      days_to_expiry: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 36_500,
          description: 'Calendar days to expiry; T = days/365. Required unless years_to_expiry is given.',
        }),
      ),
      years_to_expiry: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 100,
          description:
            "Time to expiry in years; overrides days_to_expiry (e.g. 0.5, or 20/52 for Hull's 20-week example).",
        }),
      ),
      rate: t.Optional(
        t.Number({
          default: 0,
          description:
            'Risk-free rate r, continuously compounded, per year (decimal: 0.05 = 5 %; or 5 with rate_unit "percent"). Range −50 % … 100 %. Default 0.',
        }),
      ),
      volatility: t.Optional(
        t.Number({
          description:
            'Volatility σ per year (decimal: 0.2 = 20 %; or 20 with rate_unit "percent"), in (0, 1000 %]. Required unless market_price is given.',
        }),
      ),
      dividend_yield: t.Optional(
        t.Number({
          default: 0,
          description:
            'Continuous dividend yield q per year (decimal: 0.01 = 1 %; or 1 with rate_unit "percent"), −50 % … 100 %. Default 0.',
        }),
      ),
      type: t.Optional(
        t.Union([t.Literal('call'), t.Literal('put')], {
          default: 'call',
          description: 'Option type: "call" (default) or "put". Greeks are for this type.',
        }),
      ),
      market_price: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 1e12,
          description:
            'Observed option price; triggers the implied-volatility solve. Without volatility, price and Greeks are given at the implied volatility.',
        }),
      ),
      rate_unit: rateUnitField('rate, volatility and dividend_yield'),
    },
    { additionalProperties: true },
  ),
  aliases: { values: RATE_UNIT_ALIASES },
  output: t.Object({
    type: t.String({ description: 'call or put.' }),
    price: n('Model price of the chosen option.'),
    call_price: n('Model call price.'),
    put_price: n('Model put price.'),
    d1: n('d1 = [ln(S/K) + (r − q + σ²/2)T]/(σ√T).'),
    d2: n('d2 = d1 − σ√T.'),
    greeks: t.Object(
      {
        delta: n('∂V/∂S.'),
        gamma: n('∂²V/∂S².'),
        vega: n('∂V/∂σ per 1.00 (100 %) of volatility.'),
        vega_per_pct: n('Vega per 1 volatility point (vega/100).'),
        theta_per_year: n('∂V/∂t per year (negative = time decay).'),
        theta_per_day: n('Theta per calendar day (theta_per_year/365).'),
        rho: n('∂V/∂r per 1.00 (100 %) of rate.'),
        rho_per_pct: n('Rho per 1 percentage point of rate (rho/100).'),
      },
      { description: 'Greeks of the chosen option type.' },
    ),
    implied_volatility: t.Union([t.Number(), t.Null()], {
      description: 'Implied volatility (decimal) solved from market_price; null without market_price.',
    }),
    implied_volatility_pct: t.Union([t.Number(), t.Null()], { description: 'Implied volatility in percent.' }),
    inputs_used: t.Object(
      {
        spot: n('S.'),
        strike: n('K.'),
        time_to_expiry_years: n('T in years.'),
        rate: n('r (decimal, continuous).'),
        volatility: n('σ used for price and Greeks (decimal): the given volatility, else the implied one.'),
        dividend_yield: n('q (decimal).'),
      },
      { description: 'Normalised inputs (decimals).' },
    ),
    conventions: t.String({ description: 'Units and conventions of the answer.' }),
  }),
  examples: [
    {
      name: 'Hull Example 15.6 call',
      input: { spot: 42, strike: 40, years_to_expiry: 0.5, rate: 0.1, volatility: 0.2, type: 'call' },
      output: {
        type: 'call',
        price: 4.759422,
        call_price: 4.759422,
        put_price: 0.8086,
        d1: 0.769262,
        d2: 0.627841,
        greeks: {
          delta: 0.779131,
          gamma: 0.049963,
          vega: 8.813415,
          vega_per_pct: 0.088134,
          theta_per_year: -4.559092,
          theta_per_day: -0.012491,
          rho: 13.982045,
          rho_per_pct: 0.13982,
        },
        implied_volatility: null,
        implied_volatility_pct: null,
        inputs_used: { spot: 42, strike: 40, time_to_expiry_years: 0.5, rate: 0.1, volatility: 0.2, dividend_yield: 0 },
        conventions:
          'European option, Black-Scholes-Merton with continuous rate and dividend yield. T = days_to_expiry/365. vega and rho per 1.00 (100 %); *_per_pct per 1 point. theta per year and per calendar day (/365).',
      },
    },
  ],
})
