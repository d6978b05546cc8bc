import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const num = (description: string) => t.Number({ description })

export default defineService({
  slug: 'position-pnl-calculator',
  name: 'Position PnL calculator',
  description:
    'Profit and loss of a linear (USD-margined) long or short position closed at exit_price: gross PnL = size × (exit − entry) for a long (reversed for a short); fees = fee_rate × notional on entry and on exit; ROI % = net PnL / margin, where margin = entry notional / leverage; break-even exit price covering both fees = entry × (1 + f)/(1 − f) for a long, entry × (1 − f)/(1 + f) for a short. size is in units of the base asset; fee_rate is a decimal per side (0.0006 = 0.06 %) unless rate_unit is "percent". Funding is ignored.',
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      entry_price: t.Number({ exclusiveMinimum: 0, maximum: 1e12, description: 'Entry price (> 0).' }),
      exit_price: t.Number({ minimum: 0, maximum: 1e12, description: 'Exit (or current mark) price (≥ 0).' }),
      size: t.Number({
        exclusiveMinimum: 0,
        maximum: 1e15,
        description: 'Position size in base-asset units (e.g. 0.5 BTC), > 0.',
      }),
      side: t.Optional(
        t.Union([t.Literal('long'), t.Literal('short')], {
          default: 'long',
          description: '"long" (default) or "short".',
        }),
      ),
      leverage: t.Optional(
        t.Number({
          minimum: 1,
          maximum: 1000,
          default: 1,
          description: 'Leverage 1-1000 (default 1); margin = entry notional / leverage.',
        }),
      ),
      fee_rate: t.Optional(
        t.Number({
          default: 0,
          description:
            'Trading fee per side as a fraction of notional (decimal 0 … 0.02, i.e. at most 2 % per side, e.g. 0.0006 = 0.06 %; or a percent such as 0.06 with rate_unit "percent"). A larger decimal such as 0.1 is refused as implausible (it would mean 10 %; 0.1 % is 0.001). Default 0.',
        }),
      ),
      rate_unit: rateUnitField('fee_rate'),
    },
    { additionalProperties: true },
  ),
  aliases: { values: RATE_UNIT_ALIASES },
  output: t.Object({
    side: t.String({ description: 'long or short.' }),
    entry_notional: num('entry_price × size.'),
    exit_notional: num('exit_price × size.'),
    margin: num('entry_notional / leverage.'),
    gross_pnl: num('PnL before fees.'),
    entry_fee: num('fee_rate × entry_notional.'),
    exit_fee: num('fee_rate × exit_notional.'),
    total_fees: num('entry_fee + exit_fee.'),
    net_pnl: num('gross_pnl − total_fees.'),
    roi_pct: num('net_pnl / margin × 100 (return on margin).'),
    gross_roi_pct: num('gross_pnl / margin × 100.'),
    price_change_pct: num('(exit − entry)/entry × 100.'),
    break_even_price: num('Exit price at which net_pnl = 0, both fees included.'),
  }),
  examples: [
    {
      name: '10x long, 0.1 % fees',
      input: { entry_price: 50000, exit_price: 55000, size: 1, side: 'long', leverage: 10, fee_rate: 0.001 },
      output: {
        side: 'long',
        entry_notional: 50000,
        exit_notional: 55000,
        margin: 5000,
        gross_pnl: 5000,
        entry_fee: 50,
        exit_fee: 55,
        total_fees: 105,
        net_pnl: 4895,
        roi_pct: 97.9,
        gross_roi_pct: 100,
        price_change_pct: 10,
        break_even_price: 50100.1001001,
      },
    },
  ],
})
