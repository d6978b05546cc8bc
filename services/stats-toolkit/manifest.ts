import { defineService, flat, t } from '../../runtime/sdk'

const N = (description: string) => t.Union([t.Number(), t.Null()], { description })

export default defineService({
  slug: 'stats-toolkit',
  name: 'Statistics toolkit',
  description:
    'Descriptive statistics of a numeric series (up to 100,000 values), matching Python\'s statistics module: count, sum, mean, median, modes (all most-common values), min, max, range, sample and population variance and standard deviation, quartiles by the "exclusive" method (default; statistics.quantiles(n=4), Excel QUARTILE.EXC) or the "inclusive" one (method=\'inclusive\', Excel QUARTILE.INC, numpy default linear), null for fewer than 2 values, IQR, and sample skewness (adjusted Fisher-Pearson). With `data2` of the same length: Pearson correlation and the least-squares line (statistics.linear_regression) with r².',
  category: 'math',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      data: t.Array(t.Number({ minimum: -1e150, maximum: 1e150 }), {
        minItems: 1,
        maxItems: 100_000,
        description: 'The values (x): 1 to 100,000 finite numbers, |x| ≤ 1e150.',
      }),
      data2: t.Optional(
        t.Array(t.Number({ minimum: -1e150, maximum: 1e150 }), {
          minItems: 2,
          maxItems: 100_000,
          description: 'The optional second series (y) of the same length: adds correlation and regression.',
        }),
      ),
      quartile_method: t.Optional(
        t.Union([t.Literal('exclusive'), t.Literal('inclusive')], {
          default: 'exclusive',
          description:
            'Quartile interpolation, as Python statistics.quantiles(method=...): "exclusive" (default) or "inclusive".',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      y: 'data2',
      series2: 'data2',
      second_series: 'data2',
      data_2: 'data2',
      data_y: 'data2',
      other: 'data2',
      x: 'data',
      values: 'data',
      series: 'data',
      numbers: 'data',
      method: 'quartile_method',
    },
  },
  output: t.Object({
    count: t.Integer({ description: 'Number of values.' }),
    sum: t.Number({ description: 'Sum (compensated summation).' }),
    mean: t.Number({ description: 'Arithmetic mean.' }),
    median: t.Number({ description: 'Median (mean of the two middle values for an even count).' }),
    modes: t.Array(t.Number(), { description: 'All most-common values in first-seen order (statistics.multimode).' }),
    min: t.Number({ description: 'Smallest value.' }),
    max: t.Number({ description: 'Largest value.' }),
    range: t.Number({ description: 'max − min.' }),
    variance_sample: N('Sample variance (n − 1 denominator); null for one value.'),
    stdev_sample: N('Sample standard deviation; null for one value.'),
    variance_population: t.Number({ description: 'Population variance (n denominator).' }),
    stdev_population: t.Number({ description: 'Population standard deviation.' }),
    quartile_method: t.Union([t.Literal('exclusive'), t.Literal('inclusive')], {
      description: 'Quartile method used.',
    }),
    quartiles: t.Union([t.Tuple([t.Number(), t.Number(), t.Number()]), t.Null()], {
      description: '[Q1, Q2, Q3] by quartile_method; null for one value.',
    }),
    iqr: N('Q3 − Q1; null for one value.'),
    skewness: N(
      'Adjusted Fisher-Pearson sample skewness (Excel SKEW, scipy skew(bias=False)); null for fewer than 3 values or zero spread.',
    ),
    correlation: t.Optional(
      N('Pearson correlation of data and data2 (only with data2); null when either series is constant.'),
    ),
    regression: t.Optional(
      t.Union(
        [
          t.Object({
            slope: t.Number({ description: 'Least-squares slope of data2 on data.' }),
            intercept: t.Number({ description: 'Intercept: data2 ≈ slope × data + intercept.' }),
            r_squared: t.Number({ description: 'Coefficient of determination (correlation²).' }),
          }),
          t.Null(),
        ],
        { description: 'Simple linear regression (only with data2; null when data is constant).' },
      ),
    ),
  }),
  examples: [
    {
      name: 'Small sample',
      input: { data: [2, 4, 4, 4, 5, 5, 7, 9] },
      output: {
        count: 8,
        sum: 40,
        mean: 5,
        median: 4.5,
        modes: [4],
        min: 2,
        max: 9,
        range: 7,
        variance_sample: 4.571428571428571,
        stdev_sample: 2.138089935299395,
        variance_population: 4,
        stdev_population: 2,
        quartile_method: 'exclusive',
        quartiles: [4, 4.5, 6.5],
        iqr: 2.5,
        skewness: 0.8184875533567997,
      },
    },
  ],
})
