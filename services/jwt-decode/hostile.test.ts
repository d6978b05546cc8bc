/** jwt-decode is linear in the token and refuses a payload nested past 64 levels (its answer echoes it). */
import { growsLinearly } from '../../test/support/large-inputs'

const b64 = (o: string) => Buffer.from(o).toString('base64url')
const token = (payload: string) => `${b64('{"alg":"none"}')}.${b64(payload)}.`

growsLinearly('jwt-decode', [
  {
    name: 'payload with many claims',
    n: 2_500,
    input: (n) => ({
      token: token(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, i])))),
    }),
  },
  {
    name: 'payload nested thousands deep',
    n: 18_000,
    refused: 'INVALID_INPUT',
    input: (n) => ({ token: token(`{"a":${'['.repeat(n)}${']'.repeat(n)}}`) }),
  },
])
