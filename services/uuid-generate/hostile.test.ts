/** uuid-generate is linear in the v5 name and bounded by 100 UUIDs a call. */
import { growsLinearly } from '../../test/support/large-inputs'

growsLinearly('uuid-generate', [
  { name: 'v5 with a long name, 100 UUIDs', n: 5_000, input: (n) => ({ version: 5, name: 'n'.repeat(n), count: 100 }) },
])
