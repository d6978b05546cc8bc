import { defineService, flat, t } from '../../runtime/sdk'

const num = (description: string) => t.Number({ description })
const numOrNull = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'impermanent-loss-calculator',
  name: 'Impermanent loss calculator (50/50 pool)',
  description:
    'Impermanent loss of a 50/50 constant-product pool (Uniswap v2 style, x·y = k, no range) when the price of one token relative to the other changes by price_ratio = new price / initial price: IL = 2√r/(1 + r) − 1 (e.g. r = 2 → −5.719 %, r = 4 → −20 %). With initial_value (total deposited, in the quote currency, quote price constant): HODL value = V(1 + r)/2, LP value = V√r, and fees_earned (same currency) are added to the LP side to show the net result and the fees still needed to break even. Percent outputs are percents; fractions are decimals.',
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      price_ratio: t.Number({
        exclusiveMinimum: 0,
        maximum: 1e9,
        description:
          'New price / initial price of the volatile token in terms of the other (> 0; 2 = doubled, 0.5 = halved).',
      }),
      initial_value: t.Optional(
        t.Number({
          minimum: 0,
          maximum: 1e15,
          default: 1000,
          description: 'Total value deposited (both sides together), in the quote currency. Default 1000.',
        }),
      ),
      fees_earned: t.Optional(
        t.Number({
          minimum: 0,
          maximum: 1e15,
          default: 0,
          description: 'Trading fees earned by the position over the period, same currency. Default 0.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      ratio: 'price_ratio',
      deposit: 'initial_value',
      initial_investment: 'initial_value',
      fees: 'fees_earned',
    },
  },
  output: t.Object({
    price_ratio: num('r = new price / initial price.'),
    impermanent_loss: num('2√r/(1+r) − 1, a fraction (≤ 0).'),
    impermanent_loss_pct: num('impermanent_loss × 100.'),
    hodl_value: num('Value of simply holding the deposited tokens: V(1 + r)/2.'),
    lp_value: num('Value of the LP position before fees: V√r.'),
    lp_value_with_fees: num('lp_value + fees_earned.'),
    loss_vs_hodl: num('lp_value − hodl_value (≤ 0).'),
    net_vs_hodl: num('lp_value_with_fees − hodl_value.'),
    net_vs_hodl_pct: numOrNull('net_vs_hodl / hodl_value × 100 (null when hodl_value is 0).'),
    fees_to_break_even: num('Fees still needed for the LP to match HODL (0 when already covered).'),
    pool_composition: t.Object(
      {
        token_share_of_initial: num('Volatile-token amount now / initially deposited = 1/√r.'),
        quote_share_of_initial: num('Quote-token amount now / initially deposited = √r.'),
      },
      { description: 'How the pool rebalanced.' },
    ),
  }),
  examples: [
    {
      name: 'Price doubles',
      input: { price_ratio: 2, initial_value: 1000, fees_earned: 20 },
      output: {
        price_ratio: 2,
        impermanent_loss: -0.0571909584179,
        impermanent_loss_pct: -5.71909584179,
        hodl_value: 1500,
        lp_value: 1414.21356237,
        lp_value_with_fees: 1434.21356237,
        loss_vs_hodl: -85.7864376269,
        net_vs_hodl: -65.7864376269,
        net_vs_hodl_pct: -4.38576250846,
        fees_to_break_even: 65.7864376269,
        pool_composition: { token_share_of_initial: 0.707106781187, quote_share_of_initial: 1.41421356237 },
      },
    },
  ],
})
