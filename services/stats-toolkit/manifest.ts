import { defineService, flat, t } from '../../runtime/sdk'

const N = t.Union([t.Number(), t.Null()])

export default defineService({
  slug: 'stats-toolkit',
  name: 'Statistics toolkit',
  description: 'Descriptive statistics of a numeric series (up to 100,000 values), matching Python\'s statistics module: count, sum, mean, median, modes (all most-common values), min, max, range, sample and population variance and standard deviation, quartiles by the "exclusive" method (statistics.quantiles(n=4), Excel QUARTILE.EXC; null for fewer than 2 values), IQR, and sample skewness (adjusted Fisher-Pearson). With `data2` of the same length: Pearson correlation and the least-squares line (statistics.linear_regression) with r².',
  category: 'math',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      data: t.Array(t.Number({ minimum: -1e150, maximum: 1e150 }), { minItems: 1, maxItems: 100_000, description: 'The values (x).' }),
      data2: t.Optional(t.Array(t.Number({ minimum: -1e150, maximum: 1e150 }), { minItems: 2, maxItems: 100_000, description: 'A second series (y) of the same length.' })),
    },
    { additionalProperties: true },
  ),
  output: t.Object({
    count: t.Integer(), sum: t.Number(), mean: t.Number(), median: t.Number(), modes: t.Array(t.Number()), min: t.Number(), max: t.Number(), range: t.Number(),
    variance_sample: N, stdev_sample: N, variance_population: t.Number(), stdev_population: t.Number(),
    quartiles: t.Union([t.Tuple([t.Number(), t.Number(), t.Number()]), t.Null()]), iqr: N, skewness: N,
    correlation: t.Optional(N), regression: t.Optional(t.Union([t.Object({ slope: t.Number(), intercept: t.Number(), r_squared: t.Number() }), t.Null()])),
  }),
  examples: [{ name: 'Small sample', input: { data: [2, 4, 4, 4, 5, 5, 7, 9] } }],
})
