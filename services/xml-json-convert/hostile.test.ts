/** xml-json-convert stays linear and refuses answers past the cap (deep indentation, long names repeated). */
import { growsLinearly } from '../../test/support/large-inputs'

growsLinearly('xml-json-convert', [
  {
    name: 'many attributes',
    n: 20_000,
    input: (n) => ({ input: `<a ${Array.from({ length: n }, (_, i) => `x${i}="1"`).join(' ')}/>` }),
  },
  { name: 'many siblings', n: 30_000, input: (n) => ({ input: `<a>${'<b x="1">t</b>'.repeat(n)}</a>` }) },
  {
    name: 'small elements nested 63 deep, indent 8',
    n: 120_000,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ input: '<a>'.repeat(63) + '<b/>'.repeat(n) + '</a>'.repeat(63), indent: 8 }),
  },
  {
    name: 'a long key over a long array, to XML',
    n: 100_000,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ input: JSON.stringify({ ['k'.repeat(100_000)]: Array(n).fill(1) }) }),
  },
])
