import { defineService, flat, t } from '../../runtime/sdk'

export const OPS = ['percent_of', 'percent_change', 'what_percent', 'tip', 'add_percent', 'subtract_percent'] as const
const num = (description: string) => t.Number({ minimum: -1e15, maximum: 1e15, description })

export default defineService({
  slug: 'percentage-calc',
  name: 'Percentage calculator',
  description:
    'Everyday percentages; percents are written as percents (15 means 15 %). Fields used by each op — percent_of: `percent` % of `value` (`from` is accepted instead of `value`; with only `from` and `to`, it is `from` % of `to`: from 15, to 200 -> 30). percent_change: change from `from` to `to` as a percent of |from| (negative for a decrease). what_percent: `part` is what percent of `whole` (X is what percent of Y; without them `from` is read as the part and `to` as the whole, and the answer echoes `part` and `whole`). tip: a `tip_percent` tip (or `percent`, or `to`; default 15) on the bill `value` (or `from`), total, and the total split between `split` people (default 1). add_percent / subtract_percent: `value` increased or decreased by `percent` % (e.g. VAT, a discount). Ops may be written as in the spec (percent-of, percent-change, X-is-what-percent-of-Y) and `rate` is accepted for `percent`. Results are rounded to 10 decimal places. A missing field for the op, division by zero (percent_change from 0, what_percent of 0) or a result outside double range is a 422.',
  category: 'math',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      op: t.Union(
        OPS.map((x) => t.Literal(x)),
        {
          description:
            'The calculation: percent_of, percent_change, what_percent, tip, add_percent or subtract_percent.',
        },
      ),
      part: t.Optional(num('what_percent: the part (X in "X is what percent of Y"), e.g. 30 of 120.')),
      whole: t.Optional(num('what_percent: the whole (Y in "X is what percent of Y"), e.g. 120.')),
      from: t.Optional(
        num(
          'percent_change: start value; what_percent: the part (X) when `part` is absent; percent_of and tip: used as the value when `value` is absent.',
        ),
      ),
      to: t.Optional(
        num(
          'percent_change: end value; what_percent: the whole (Y) when `whole` is absent; percent_of without `percent`: the base; tip without `tip_percent`/`percent`: the tip rate in percent.',
        ),
      ),
      value: t.Optional(
        num('percent_of: the base; tip: the bill; add_percent / subtract_percent: the amount to change.'),
      ),
      percent: t.Optional(num('percent_of, add_percent, subtract_percent: the percent, e.g. 15.')),
      tip_percent: t.Optional(
        t.Number({
          minimum: 0,
          maximum: 1000,
          description:
            'tip: tip rate in percent (15 means 15 %), 0-1000. When absent, `percent`, then `to`, is used as the rate; default 15.',
        }),
      ),
      split: t.Optional(
        t.Integer({
          minimum: 1,
          maximum: 1000,
          default: 1,
          description: 'tip: number of people sharing the total, 1-1000. Default 1.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      rate: 'percent',
      pct: 'percent',
      percentage: 'percent',
      tip_rate: 'tip_percent',
      tip_pct: 'tip_percent',
      amount: 'value',
      bill: 'value',
      base: 'value',
      people: 'split',
      operation: 'op',
      mode: 'op',
      type: 'op',
      old: 'from',
      new: 'to',
      numerator: 'part',
      denominator: 'whole',
    },
    values: {
      op: {
        x_is_what_percent_of_y: 'what_percent',
        what_percent_of: 'what_percent',
        is_what_percent: 'what_percent',
        percent_what: 'what_percent',
        ratio: 'what_percent',
        percentage_of: 'percent_of',
        of: 'percent_of',
        change: 'percent_change',
        percentage_change: 'percent_change',
        pct_change: 'percent_change',
        difference: 'percent_change',
        add: 'add_percent',
        increase: 'add_percent',
        markup: 'add_percent',
        subtract: 'subtract_percent',
        decrease: 'subtract_percent',
        discount: 'subtract_percent',
      },
    },
  },
  output: t.Object({
    op: t.Union(
      OPS.map((x) => t.Literal(x)),
      { description: 'The op computed.' },
    ),
    result: t.Number({
      description:
        'percent_of: the amount; percent_change and what_percent: a percent; tip: the tip amount; add/subtract_percent: the new amount.',
    }),
    explanation: t.String({ description: 'The calculation in words.' }),
    tip: t.Optional(t.Number({ description: 'tip only: the tip amount.' })),
    total: t.Optional(t.Number({ description: 'tip only: bill + tip.' })),
    per_person: t.Optional(t.Number({ description: 'tip only: total / split (not rounded to cents).' })),
    part: t.Optional(t.Number({ description: 'what_percent only: the part (X) that was used.' })),
    whole: t.Optional(t.Number({ description: 'what_percent only: the whole (Y) that was used.' })),
  }),
  examples: [
    {
      name: 'Percent change',
      input: { op: 'percent_change', from: 80, to: 100 },
      output: { op: 'percent_change', result: 25, explanation: 'from 80 to 100 is a change of 25%' },
    },
    {
      name: 'What percent',
      input: { op: 'what_percent', part: 30, whole: 120 },
      output: { op: 'what_percent', result: 25, part: 30, whole: 120, explanation: '30 is 25% of 120' },
    },
    {
      name: 'Tip split four ways',
      input: { op: 'tip', value: 85, tip_percent: 20, split: 4 },
      output: {
        op: 'tip',
        result: 17,
        tip: 17,
        total: 102,
        per_person: 25.5,
        explanation: '20% tip on 85, split 4 ways',
      },
    },
  ],
})
