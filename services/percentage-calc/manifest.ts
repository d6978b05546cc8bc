import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'percentage-calc',
  name: 'Percentage calculator',
  description: 'Everyday percentages. op percent_of: `percent`% of `value` (or of `from`). op percent_change: change from `from` to `to` as a percent of |from|. op what_percent: `from` is what percent of `to`. op tip: a `tip_percent` tip on the bill `value` (or `from`), split between `split` people. op add_percent / subtract_percent: `value` increased or decreased by `percent`%. Percents are given as percents (15 means 15%). Division by zero is a 422.',
  category: 'math',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      op: t.Union(['percent_of', 'percent_change', 'what_percent', 'tip', 'add_percent', 'subtract_percent'].map((x) => t.Literal(x)), { description: 'The calculation.' }),
      from: t.Optional(t.Number({ description: 'Start value / part / bill.' })),
      to: t.Optional(t.Number({ description: 'End value / whole.' })),
      value: t.Optional(t.Number({ description: 'Base value for percent_of, tip, add_percent, subtract_percent.' })),
      percent: t.Optional(t.Number({ description: 'A percent, e.g. 15.' })),
      tip_percent: t.Optional(t.Number({ minimum: 0, maximum: 1000, default: 15 })),
      split: t.Optional(t.Integer({ minimum: 1, maximum: 1000, default: 1 })),
    },
    { additionalProperties: true },
  ),
  output: t.Object({ op: t.String(), result: t.Number(), explanation: t.String(), tip: t.Optional(t.Number()), total: t.Optional(t.Number()), per_person: t.Optional(t.Number()) }),
  examples: [{ name: 'Change', input: { op: 'percent_change', from: 80, to: 100 }, output: { op: 'percent_change', result: 25, explanation: 'from 80 to 100 is a change of 25%' } }],
})
