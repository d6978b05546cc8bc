/**
 * markdown-to-html stays linear on unmatched emphasis delimiters (marked scans from each one to the paragraph's
 * last possible closer: `*a _` x 120,000 took 6.7 min) and on backtick runs of every length.
 */
import { expect, test } from 'bun:test'
import { emphasisScan, MAX_EMPHASIS_SCAN } from './lib'
import { hostileGrowth } from '../../test/support/large-inputs'

hostileGrowth('markdown-to-html', '*a _ in one paragraph', (n) => ({ markdown: '*a _'.repeat(n) }), 60_000, {
  outcomes: ['422 INVALID_INPUT'],
})
hostileGrowth('markdown-to-html', '*a _ paragraphs', (n) => ({ markdown: `${'*a _'.repeat(40)}\n\n`.repeat(n) }), 200, {
  outcomes: ['ok'],
})
hostileGrowth(
  'markdown-to-html',
  'backtick runs of every length',
  (n) => ({ markdown: Array.from({ length: n }, (_, i) => `${'`'.repeat(i + 1)}a`).join('') }),
  350,
  { outcomes: ['ok'] },
)

test('ordinary emphasis is far under the scan budget', () => {
  const para = 'Some **bold** text, an *emphasised* word, a snake_case_name and a `code*span`. '.repeat(100)
  expect(emphasisScan(`${para}\n\n`.repeat(50))).toBeLessThan(MAX_EMPHASIS_SCAN / 10)
})
