import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'kelly-position-sizing',
  name: 'Kelly Position Sizing',
  description: "Also fixed-fractional sizing.",
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    win_prob: t.Optional(t.Number()),
    win_loss_ratio: t.Optional(t.Number()),
    bankroll: t.Optional(t.Number()),
    kelly_fraction: t.Optional(t.Number()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
