/** html-to-markdown stays linear on many sibling elements (linkedom rebuilt `children` per index: 60,000 took > 6 min). */
import { hostileGrowth } from '../../test/support/large-inputs'

hostileGrowth('html-to-markdown', '<b>x</b> siblings', (n) => ({ html: '<b>x</b>'.repeat(n) }), 30_000, {
  outcomes: ['ok'],
})
hostileGrowth('html-to-markdown', 'table cells', (n) => ({ html: `<table>${'<tr><td>x'.repeat(n)}</table>` }), 25_000, {
  outcomes: ['ok'],
})
