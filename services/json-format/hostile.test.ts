/** json-format refuses an answer past the cap (a 43 MB indented answer before) and stays linear below it. */
import { growsLinearly } from '../../test/support/large-inputs'

growsLinearly('json-format', [
  {
    name: 'wide array nested 63 deep, indent 8',
    n: 240_000,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ json: '['.repeat(63) + '1,'.repeat(n) + '1' + ']'.repeat(63), indent: 8 }),
  },
  {
    name: 'many keys, sorted',
    n: 30_000,
    input: (n) => ({
      json: JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${n - i}`, i]))),
      sort_keys: true,
    }),
  },
])
