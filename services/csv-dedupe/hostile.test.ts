/** csv-dedupe stays linear at its size cap: blank-line runs (the row-start scan was quadratic) and many duplicates. */
import { growsLinearly } from '../../test/support/large-inputs'

growsLinearly('csv-dedupe', [
  { name: 'a run of blank lines', n: 450_000, input: (n) => ({ csv: 'a,b\n' + '\n'.repeat(n) + 'x,y\n' }) },
  { name: 'every row a duplicate', n: 45_000, input: (n) => ({ csv: 'a,b\n' + 'x,y\n'.repeat(n) }) },
])
