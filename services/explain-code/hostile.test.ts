/** The analysis family: the work before the model call is linear in the code, up to the tier's input cap. */
import { hostileGrowth } from '../../test/support/large-inputs'

hostileGrowth(
  'explain-code',
  'code at the standard tier cap',
  (n) => ({ code: '((((`${'.repeat(n / 8), context: 'x' }),
  4_000,
  {
    fixture: () => ({ model: [{ text: '## Answer\nDone.', tokens: 400 }] }),
    outcomes: ['ok'],
  },
)
