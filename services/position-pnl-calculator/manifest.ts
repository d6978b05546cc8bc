import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'position-pnl-calculator',
  name: 'Position Pnl Calculator',
  description: "PnL, ROI %, break-even.",
  category: 'crypto',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    entry_price: t.Optional(t.Number()),
    exit_price: t.Optional(t.Number()),
    size: t.Optional(t.Number()),
    side: t.Optional(t.String()),
    leverage: t.Optional(t.Number()),
    fee_rate: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
