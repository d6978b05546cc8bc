/** json-schema-infer stays linear: its ajv self-check compiles one block per property, so properties are capped. */
import { growsLinearly } from '../../test/support/large-inputs'

const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))

growsLinearly('json-schema-infer', [
  { name: 'distinct keys up to the property cap', n: 500, reps: 3, input: (n) => ({ samples: [keys(n), keys(n)] }) },
  { name: '20,000 distinct keys', n: 10_000, refused: 'INVALID_INPUT', input: (n) => ({ samples: [keys(n)] }) },
  {
    name: 'long strings tried against every format',
    n: 120_000,
    input: (n) => ({ samples: ['a@' + 'a'.repeat(n), `http://${'a'.repeat(n)}`, '1'.repeat(n)] }),
  },
  {
    name: 'many samples',
    n: 500,
    input: (n) => ({
      samples: Array.from({ length: n }, (_, i) => ({ id: i, at: Array(40).fill('2024-01-01T00:00:00Z') })),
    }),
  },
])
