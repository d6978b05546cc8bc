/** data-format-convert stays linear: distinct keys spread over many records made the CSV rows × columns. */
import { growsLinearly } from '../../test/support/large-inputs'

const distinctKeys = (n: number) => `[${Array.from({ length: n }, (_, i) => `{"k${i}":0}`).join(',')}]`

growsLinearly('data-format-convert', [
  {
    name: 'one distinct key per record, to CSV',
    n: 40_000,
    refused: 'INVALID_INPUT',
    input: (n) => ({ input: distinctKeys(n), to: 'csv' }),
  },
  { name: 'NDJSON lines to CSV', n: 30_000, input: (n) => ({ input: '{"a":1,"b":"x"}\n'.repeat(n), to: 'csv' }) },
  {
    name: 'CSV with a run of blank lines',
    n: 450_000,
    input: (n) => ({ input: 'a,b\n' + '\n'.repeat(n) + '1,2\n', to: 'json' }),
  },
  {
    name: 'wide CSV header over short rows, to NDJSON',
    n: 2_500,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({
      input: `${Array.from({ length: 1_000 }, (_, i) => `c${i}`).join(',')}\n${'x\n'.repeat(n)}`,
      from: 'csv',
      to: 'ndjson',
    }),
  },
])
