/** The finance family: a series at its 20,000-point cap that crashes and never recovers is still one linear pass. */
import { hostileGrowth } from '../../test/support/large-inputs'

hostileGrowth(
  'return-cagr-drawdown',
  'a zig-zag series that never recovers',
  (n) => ({
    series: Array.from({ length: n }, (_, i) => 1000 - i * (500 / n) + (i % 2 ? 3 : 0)),
    periods_per_year: 252,
  }),
  10_000,
  { outcomes: ['ok'] },
)
