/** The math family: 100,000 distinct values (every one a mode) stay linear in time and in answer size. */
import { hostileGrowth } from '../../test/support/large-inputs'

hostileGrowth(
  'stats-toolkit',
  'distinct values',
  (n) => ({ data: Array.from({ length: n }, (_, i) => (i * 7919) % n) }),
  50_000,
  {
    outcomes: ['ok'],
    reps: 5,
  },
)
