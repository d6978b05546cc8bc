/** The network family: address strings of every shape up to the caps parse in linear time. */
import { hostileGrowth } from '../../test/support/large-inputs'

hostileGrowth(
  'ip-cidr-calc',
  'colons and zeros',
  (n) => ({ cidr: `${'0:'.repeat(n / 2)}/64`, contains: '0'.repeat(n) }),
  45,
)
hostileGrowth('ip-info', 'dotted digits', (n) => ({ ip: '1.'.repeat(n / 2) }), 30)
