/** base64-hex-codec stays linear at its size cap, and refuses an answer past the shared cap before building it. */
import { growsLinearly } from '../../test/support/large-inputs'

growsLinearly('base64-hex-codec', [
  {
    name: 'percent-encoding 3-byte characters (9 characters each)',
    n: 150_000,
    input: (n) => ({ input: '漢'.repeat(n), alphabet: 'percent' }),
  },
  { name: 'hex decoding', n: 240_000, input: (n) => ({ input: 'c3a9'.repeat(n / 2), op: 'decode', alphabet: 'hex' }) },
  { name: 'base64 decoding with whitespace', n: 100_000, input: (n) => ({ input: 'QUJD\n'.repeat(n), op: 'decode' }) },
  {
    name: 'percent-decoding escapes',
    n: 160_000,
    input: (n) => ({ input: '%E6%BC'.repeat(n / 2) + 'a', op: 'decode', alphabet: 'percent' }),
  },
])
