import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const num = (description: string) => t.Number({ description })
const numOrNull = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'crypto-liquidation-price',
  name: 'Crypto liquidation price (isolated margin)',
  description:
    'Liquidation price of an isolated-margin linear perpetual/futures position, fees and funding ignored. Primary formula (maintenance margin on entry notional, as in Bybit\'s help center): long = entry × (1 − 1/leverage + mmr), short = entry × (1 + 1/leverage − mmr). Also gives the mark-notional variant (Binance isolated formula with no maintenance amount): long = entry × (1 − 1/leverage)/(1 − mmr), short = entry × (1 + 1/leverage)/(1 + mmr). maintenance_margin_rate is a decimal (0.005 = 0.5 %, the default) unless rate_unit is "percent"; it must be below the initial margin rate 1/leverage.',
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      entry_price: t.Number({ exclusiveMinimum: 0, maximum: 1e12, description: 'Average entry price (> 0).' }),
      leverage: t.Number({
        minimum: 1,
        maximum: 1000,
        description: 'Leverage, 1 to 1000 (initial margin rate = 1/leverage).',
      }),
      side: t.Optional(
        t.Union([t.Literal('long'), t.Literal('short')], {
          default: 'long',
          description: '"long" (default) or "short".',
        }),
      ),
      maintenance_margin_rate: t.Optional(
        t.Number({
          description:
            'Maintenance margin rate (decimal; or percent with rate_unit). 0.005 (0.5 %) when omitted. Must be below 1/leverage.',
        }),
      ),
      size: t.Optional(
        t.Number({
          exclusiveMinimum: 0,
          maximum: 1e15,
          description:
            'Optional position size in units of the base asset (e.g. 0.5 BTC); adds notional, margins and the loss at liquidation.',
        }),
      ),
      rate_unit: rateUnitField('maintenance_margin_rate'),
    },
    { additionalProperties: true },
  ),
  aliases: { values: RATE_UNIT_ALIASES },
  output: t.Object({
    side: t.String({ description: 'long or short.' }),
    liquidation_price: num('Liquidation price, maintenance margin on entry notional (primary formula).'),
    liquidation_price_mark_based: num(
      'Variant with maintenance margin on mark notional (Binance-style, no maintenance amount).',
    ),
    distance_pct: num('Adverse price move from entry to liquidation_price, in percent.'),
    initial_margin_rate: num('1/leverage (decimal).'),
    maintenance_margin_rate: num('Maintenance margin rate used (decimal).'),
    notional: numOrNull('entry_price × size (null without size).'),
    initial_margin: numOrNull('notional / leverage (null without size).'),
    maintenance_margin: numOrNull('notional × maintenance_margin_rate (null without size).'),
    loss_at_liquidation: numOrNull('size × |entry − liquidation_price| (null without size).'),
    formula: t.String({ description: 'The primary formula applied.' }),
  }),
  examples: [
    {
      name: '10x long BTC',
      input: { entry_price: 50000, leverage: 10, side: 'long', maintenance_margin_rate: 0.005, size: 0.1 },
      output: {
        side: 'long',
        liquidation_price: 45250,
        liquidation_price_mark_based: 45226.130653,
        distance_pct: 9.5,
        initial_margin_rate: 0.1,
        maintenance_margin_rate: 0.005,
        notional: 5000,
        initial_margin: 500,
        maintenance_margin: 25,
        loss_at_liquidation: 475,
        formula: 'long: entry × (1 − 1/leverage + mmr)',
      },
    },
  ],
})
