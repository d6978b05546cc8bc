/** json-diff stays linear: a long key over many changed items made a patch of gigabytes before. */
import { growsLinearly } from '../../test/support/large-inputs'

const K = 'k'.repeat(200_000)

growsLinearly('json-diff', [
  {
    name: 'a 200,000-character key over changed items',
    n: 20_000,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ a: { [K]: Array(n).fill(0) }, b: { [K]: Array(n).fill(1) } }),
  },
  {
    name: 'reversed arrays of objects (past the LCS budget)',
    n: 20_000,
    input: (n) => {
      const a = Array.from({ length: n }, (_, i) => ({ i }))
      return { a, b: [...a].reverse() }
    },
  },
  {
    name: 'objects with many keys',
    n: 30_000,
    input: (n) => ({
      a: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])),
      b: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i % 2 ? i : -i])),
    }),
  },
])
