import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const num = (description: string) => t.Number({ description })
const numOrNull = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'kelly-position-sizing',
  name: 'Kelly criterion position sizing',
  description:
    'Kelly criterion for a bet that wins b × stake with probability p and loses the stake otherwise: f* = p − (1 − p)/b (fraction of bankroll). Reports the edge p·b − (1 − p), fractional Kelly (f* × kelly_fraction, floored at 0: no bet without an edge), half Kelly, the expected log-growth per bet g(f) = p·ln(1 + f·b) + (1 − p)·ln(1 − f), and fixed-fractional sizing (risk fixed_fraction of bankroll per trade; with risk_per_unit, the number of units). win_prob and fixed_fraction are decimals (0.2 = 20 %) unless rate_unit is "percent"; kelly_fraction is always a multiplier.',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      win_prob: t.Number({
        minimum: 0,
        maximum: 100,
        description:
          'Probability of winning p: a decimal from 0 to 1 (0.55), or a percent (55) with rate_unit "percent".',
      }),
      win_loss_ratio: t.Number({
        exclusiveMinimum: 0,
        maximum: 1e6,
        description: 'b = average win / average loss (net odds; 1 for an even-money bet), > 0.',
      }),
      bankroll: t.Optional(
        t.Number({ exclusiveMinimum: 0, maximum: 1e15, description: 'Capital available; adds stake amounts.' }),
      ),
      kelly_fraction: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 1,
          default: 1,
          description: 'Multiplier on full Kelly, in (0, 1]: 1 = full (default), 0.5 = half Kelly.',
        }),
      ),
      fixed_fraction: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 100,
          description:
            'Fixed-fractional sizing: share of bankroll risked per trade (decimal, default 0.02 = 2 %; or a percent with rate_unit "percent").',
        }),
      ),
      rate_unit: rateUnitField('win_prob and fixed_fraction'),
      risk_per_unit: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 1e12,
          description:
            'Loss per unit (share, contract) if the trade loses, e.g. entry − stop; gives a unit count for fixed-fractional sizing.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { values: RATE_UNIT_ALIASES },
  output: t.Object({
    kelly_full: num('f* = p − (1 − p)/b (negative means the bet has no edge).'),
    kelly_full_pct: num('f* in percent.'),
    edge: num('Expected profit per unit staked: p·b − (1 − p).'),
    recommendation: t.Union([t.Literal('bet'), t.Literal('no_bet')], { description: '"no_bet" when f* ≤ 0.' }),
    kelly_fraction: num('Multiplier applied.'),
    applied_fraction: num('max(0, f*) × kelly_fraction, fraction of bankroll to stake.'),
    applied_fraction_pct: num('applied_fraction in percent.'),
    half_kelly: num('max(0, f*)/2.'),
    stake: numOrNull('bankroll × applied_fraction (null without bankroll).'),
    growth_rate_full: numOrNull('Expected log-growth per bet at full Kelly (null when f* ≤ 0).'),
    growth_rate_applied: num('Expected log-growth per bet at applied_fraction (0 when not betting).'),
    fixed_fractional: t.Object(
      {
        fraction: num('Share of bankroll risked per trade.'),
        risk_amount: numOrNull('bankroll × fraction (null without bankroll).'),
        units: numOrNull('floor(risk_amount / risk_per_unit) (null without both).'),
      },
      { description: 'Fixed-fractional sizing.' },
    ),
  }),
  examples: [
    {
      name: '60 % even-money bet',
      input: { win_prob: 0.6, win_loss_ratio: 1, bankroll: 10000, kelly_fraction: 0.5 },
      output: {
        kelly_full: 0.2,
        kelly_full_pct: 20,
        edge: 0.2,
        recommendation: 'bet',
        kelly_fraction: 0.5,
        applied_fraction: 0.1,
        applied_fraction_pct: 10,
        half_kelly: 0.1,
        stake: 1000,
        growth_rate_full: 0.0201355135507,
        growth_rate_applied: 0.0150419016195,
        fixed_fractional: { fraction: 0.02, risk_amount: 200, units: null },
      },
    },
  ],
})
