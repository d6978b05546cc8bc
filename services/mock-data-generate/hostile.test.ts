/** mock-data-generate is linear in records × fields and refuses an answer past the shared cap. */
import { growsLinearly } from '../../test/support/large-inputs'

const fields = (type: string) => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, type]))

growsLinearly('mock-data-generate', [
  { name: '50 paragraph fields', n: 300, input: (n) => ({ fields: fields('paragraph'), count: n }) },
  {
    name: '50 paragraph fields as CSV',
    n: 300,
    input: (n) => ({ fields: fields('paragraph'), count: n, format: 'csv' }),
  },
])
