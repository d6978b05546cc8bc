/** json-to-csv refuses a table of more than 2,000,000 cells (10,000 rows × 1,000 keys) and stays linear below it. */
import { growsLinearly } from '../../test/support/large-inputs'

growsLinearly('json-to-csv', [
  {
    name: 'rows spreading 1,000 distinct keys',
    n: 5_000,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ rows: Array.from({ length: n }, (_, i) => ({ [`k${i % 1_000}`]: i })) }),
  },
  {
    name: 'rows of ten keys',
    n: 5_000,
    input: (n) => ({
      rows: Array.from({ length: n }, (_, i) =>
        Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`k${j}`, `v${i},"${j}"`])),
      ),
    }),
  },
])
