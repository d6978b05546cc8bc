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
    ],
    { description },
  )

const units = t.Object(
  {
    wei: t.String({ description: 'Amount in wei (10^0 wei).' }),
    kwei: t.String({ description: 'Amount in kwei (10^3 wei).' }),
    mwei: t.String({ description: 'Amount in mwei (10^6 wei).' }),
    gwei: t.String({ description: 'Amount in gwei (10^9 wei).' }),
    szabo: t.String({ description: 'Amount in szabo (10^12 wei).' }),
    finney: t.String({ description: 'Amount in finney (10^15 wei).' }),
    ether: t.String({ description: 'Amount in ether (10^18 wei).' }),
  },
  { description: 'The same amount in every denomination, as exact decimal strings.' },
)

export default defineService({
  slug: 'eth-unit-convert',
  name: 'Ether unit converter (exact)',
  description:
    'Converts an Ether amount between wei, kwei (10^3), mwei (10^6), gwei (10^9), szabo (10^12), finney (10^15) and ether (10^18 wei) with exact BigInt decimal arithmetic: strings in, strings out, no floating point ("0.1" ether is exactly "100000000000000000" wei). Accepts plain decimals, exponents ("1.5e-3") and 0x-hex integers. An amount finer than 1 wei is a 422 unless `rounding` says "down" or "half_up". Also returns the amount in every unit. Differs from eth-unit-converter: Ether denominations only, all units in one answer; use eth-unit-converter for ERC-20 amounts (`decimals`) or a USD value.',
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  linear: true,
  input: t.Object(
    {
      value: t.String({
        minLength: 1,
        maxLength: 100,
        description:
          'Amount as a decimal string, e.g. "0.1", "21000", "1.5e-3", or a 0x-hex integer. Negative amounts are allowed.',
      }),
      from: unit('Unit of `value`: wei, kwei, mwei, gwei, szabo, finney or ether.'),
      to: unit('Target unit: wei, kwei, mwei, gwei, szabo, finney or ether.'),
      rounding: roundingField(),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { amount: 'value', from_unit: 'from', to_unit: 'to' } },
  output: t.Object({
    value: t.String({ description: 'The input amount, normalised.' }),
    from: t.String({ description: 'Source unit.' }),
    to: t.String({ description: 'Target unit.' }),
    result: t.String({ description: 'The converted amount in `to`, exact decimal string.' }),
    wei: t.String({ description: 'The amount in wei (integer string).' }),
    rounded: t.Boolean({ description: 'True when the input was finer than 1 wei and `rounding` changed it.' }),
    units,
  }),
  examples: [
    {
      name: '0.1 ether to wei',
      input: { value: '0.1', from: 'ether', to: 'wei' },
      output: {
        value: '0.1',
        from: 'ether',
        to: 'wei',
        result: '100000000000000000',
        wei: '100000000000000000',
        rounded: false,
        units: {
          wei: '100000000000000000',
          kwei: '100000000000000',
          mwei: '100000000000',
          gwei: '100000000',
          szabo: '100000',
          finney: '100',
          ether: '0.1',
        },
      },
    },
  ],
})
