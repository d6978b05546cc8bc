/** csv-profile stays linear: a 1,000-column header over many one-field rows cost rows × columns before. */
import { growsLinearly } from '../../test/support/large-inputs'

const header = Array.from({ length: 1_000 }, (_, i) => `c${i}`).join(',')

growsLinearly('csv-profile', [
  { name: 'wide header over short rows', n: 45_000, input: (n) => ({ csv: `${header}\n${'x\n'.repeat(n)}` }) },
  { name: 'a run of blank lines', n: 450_000, input: (n) => ({ csv: 'a,b\n' + '\n'.repeat(n) + '1,2\n' }) },
  {
    name: 'distinct numbers',
    n: 35_000,
    input: (n) => ({ csv: 'a,b\n' + Array.from({ length: n }, (_, i) => `${i},${n - i}`).join('\n') }),
  },
])
