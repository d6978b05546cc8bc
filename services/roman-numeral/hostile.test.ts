/** roman-numeral is bounded: numerals are at most 32 characters and checked by one anchored regex. */
import { growsLinearly } from '../../test/support/large-inputs'

growsLinearly('roman-numeral', [
  { name: 'a long non-canonical numeral', n: 16, refused: 'INVALID_INPUT', input: (n) => ({ numeral: 'I'.repeat(n) }) },
  { name: 'a canonical numeral', n: 4, input: (n) => ({ numeral: 'MMMDCCCLXXXVIII'.slice(0, n) }) },
])
