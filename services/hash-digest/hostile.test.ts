/** hash-digest is linear in the text (plain and HMAC). */
import { growsLinearly } from '../../test/support/large-inputs'

growsLinearly('hash-digest', [
  { name: 'text at the size cap', n: 450_000, input: (n) => ({ text: 'é'.repeat(n), algo: 'sha512' }) },
  {
    name: 'HMAC over the size cap',
    n: 450_000,
    input: (n) => ({ text: 'a'.repeat(n), algo: 'sha256', key: 'k'.repeat(4096) }),
  },
])
