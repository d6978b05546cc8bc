/** csv-to-json stays linear, and refuses before padding short rows to a wide header (a 59 MB answer before). */
import { growsLinearly } from '../../test/support/large-inputs'

const header = Array.from({ length: 1_000 }, (_, i) => `column${i}`).join(',')

growsLinearly('csv-to-json', [
  { name: 'a run of blank lines', n: 450_000, input: (n) => ({ csv: 'a\n' + '\n'.repeat(n) + 'x\n' }) },
  {
    name: 'wide header over short rows',
    n: 2_500,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ csv: `${header}\n${'x\n'.repeat(n)}` }),
  },
  {
    name: 'long column names repeated in every record',
    n: 20_000,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ csv: `${'k'.repeat(500)},b\n${'1,2\n'.repeat(n)}` }),
  },
  { name: 'many small rows', n: 45_000, input: (n) => ({ csv: 'a,b\n' + '1,x\n'.repeat(n), dynamic_typing: true }) },
])
