/** text-diff beyond its fixtures: the fallback hunks are exactly Python's difflib, and big unrelated texts stay in budget. */
import { expect, test } from 'bun:test'
import { testContext } from '../../runtime/sdk'
import { expectCpuUnder } from '../../test/support/growth'
import handler, { unifiedDiff } from './handler'

const run = async (input: { a: string; b: string }) =>
  JSON.parse(JSON.stringify(await handler(input as never, testContext({ service: 'text-diff' })))) as {
    algorithm: string
  }

test('text-diff fallback hunks are exactly difflib.unified_diff (plus the no-newline markers)', () => {
  // expected: Python difflib.unified_diff(a.splitlines(True), b.splitlines(True), 'a', 'b', n=n), with
  // "\\ No newline at end of file" after a line that has no newline, as GNU diff writes it
  const cases: Array<[string, string, number, string]> = [
    [
      'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n',
      'a\nB\nc\nd\ne\nf\ng\nh\nI\nj\nk',
      1,
      '--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -8,3 +8,4 @@\n h\n-i\n+I\n j\n+k\n\\ No newline at end of file\n',
    ],
    [
      'one\ntwo\nthree',
      'zero\none\n2\nthree',
      3,
      '--- a\n+++ b\n@@ -1,3 +1,4 @@\n+zero\n one\n-two\n+2\n three\n\\ No newline at end of file\n',
    ],
  ]
  for (const [a, b, n, want] of cases) {
    const got = unifiedDiff(a, b, n, -1)
    expect(got.algorithm).toBe('difflib')
    expect(got.text).toBe(want)
  }
})

test('text-diff answers unrelated 50,000-character texts within its budget', async () => {
  for (const [a, b] of [
    ['a\n'.repeat(25_000), 'b\n'.repeat(25_000)],
    ['x\ny\n'.repeat(12_500), 'x\nz\n'.repeat(12_500)],
  ]) {
    const out = await expectCpuUnder('unrelated texts', 5000, () => run({ a, b }))
    expect(out.algorithm).toBe('difflib')
  }
}, 60_000)
