/** The language family: the work before the model call is linear in the text, up to its cap (hostile text, many labels). */
import { hostileGrowth } from '../../test/support/large-inputs'

const reply = { json: { label: 'billing', confidence: 0.9, scores: [], reason: 'Money.' }, tokens: 211 }

hostileGrowth(
  'classify-text',
  'text at the cap with 50 labels',
  (n) => ({
    text: '*a _<b>1-'.repeat(n / 9),
    labels: Array.from({ length: 50 }, (_, i) => (i ? `label ${i}` : 'billing')),
  }),
  10_000,
  { fixture: () => ({ model: [reply] }), outcomes: ['ok'] },
)
