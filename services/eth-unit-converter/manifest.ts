import { defineService, flat, t } from '../../runtime/sdk'
import { roundingField } from '../_lib/finance-units'

const unit = (description: string) =>
  t.Union(
    [
      t.Literal('wei'),
      t.Literal('kwei'),
      t.Literal('mwei'),
      t.Literal('gwei'),
      t.Literal('szabo'),
      t.Literal('finney'),
      t.Literal('ether'),
      t.Literal('base'),
      t.Literal('token'),
    ],
    { description },
  )

export default defineService({
  slug: 'eth-unit-converter',
  name: 'Ether and token unit converter',
  description:
    'Converts on-chain amounts exactly (BigInt decimal arithmetic, strings in and out, no floating point): Ether denominations wei, kwei, mwei, gwei, szabo, finney, ether (10^0 … 10^18 wei), plus `base` (the smallest unit, 1) and `token` (10^`decimals` base units) for any ERC-20, e.g. USDC with decimals 6. An amount finer than one base unit is a 422 unless `rounding` allows it. Optional `usd_price` (USD per whole token, i.e. per ether when decimals is 18) adds an approximate USD value computed separately in floating point. Differs from eth-unit-convert: one from/to conversion that also covers ERC-20 decimals and USD; eth-unit-convert lists an Ether amount in every Ether unit at once.',
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      amount: t.String({
        minLength: 1,
        maxLength: 100,
        description: 'Amount as a decimal string ("1.5", "21000", "2e-6") or a 0x-hex integer.',
      }),
      from_unit: unit(
        'Unit of `amount`: wei, kwei, mwei, gwei, szabo, finney, ether, base (smallest unit) or token (10^decimals base units).',
      ),
      to_unit: unit('Target unit (same choices as from_unit).'),
      decimals: t.Optional(
        t.Integer({
          minimum: 0,
          maximum: 77,
          default: 18,
          description:
            'Token decimals for the `base`/`token` units (18 for ETH and most ERC-20s, 6 for USDC/USDT, 8 for WBTC). Default 18.',
        }),
      ),
      usd_price: t.Optional(
        t.Number({
          minimum: 0,
          maximum: 1e12,
          description: 'USD price of one whole token (one ether when decimals is 18). Adds an approximate usd_value.',
        }),
      ),
      rounding: roundingField(),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { value: 'amount', from: 'from_unit', to: 'to_unit' } },
  output: t.Object({
    amount: t.String({ description: 'The input amount, normalised.' }),
    from_unit: t.String({ description: 'Source unit.' }),
    to_unit: t.String({ description: 'Target unit.' }),
    decimals: t.Integer({ description: 'Token decimals used for base/token units.' }),
    result: t.String({ description: 'Converted amount, exact decimal string.' }),
    base_units: t.String({ description: 'The amount in base units (wei for ETH), integer string.' }),
    token_amount: t.String({
      description: 'The amount in whole tokens (10^decimals base units), exact decimal string.',
    }),
    rounded: t.Boolean({ description: 'True when the amount was finer than 1 base unit and `rounding` changed it.' }),
    usd_value: t.Union([t.Number(), t.Null()], {
      description: 'token_amount × usd_price, APPROXIMATE (double-precision float); null without usd_price.',
    }),
    usd_value_note: t.Union([t.String(), t.Null()], {
      description: 'How usd_value was computed; null without usd_price.',
    }),
  }),
  examples: [
    {
      name: '1.5 USDC to base units',
      input: { amount: '1.5', from_unit: 'token', to_unit: 'base', decimals: 6, usd_price: 1 },
      output: {
        amount: '1.5',
        from_unit: 'token',
        to_unit: 'base',
        decimals: 6,
        result: '1500000',
        base_units: '1500000',
        token_amount: '1.5',
        rounded: false,
        usd_value: 1.5,
        usd_value_note: 'approximate: token_amount × usd_price in double-precision floating point',
      },
    },
  ],
})
