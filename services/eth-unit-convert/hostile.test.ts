/** The crypto family: values of every length up to the 100-character cap convert in linear time (BigInt, no float loop). */
import { hostileGrowth } from '../../test/support/large-inputs'

hostileGrowth(
  'eth-unit-convert',
  'long decimal values',
  (n) => ({ value: `${'9'.repeat(n)}.${'9'.repeat(n - 2)}`, from: 'ether', to: 'wei' }),
  25,
)
