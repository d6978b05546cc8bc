import { createTwoFilesPatch, diffLines } from 'diff'
import { handlerFor } from '../../runtime/sdk'
import { ratio } from '../_lib/difflib'
import manifest from './manifest'

const lineCount = (v: string) => v.split('\n').length - (v.endsWith('\n') ? 1 : 0)

/** GNU diff -u and Python difflib write a one-line range as "N", not "N,1". */
const hunkHeader = (line: string) => line.replace(/^@@ -(\d+),1 \+/, '@@ -$1 +').replace(/ \+(\d+),1 @@/, ' +$1 @@')

/** jsdiff's patch minus its Index:/=== preamble and the tabs after the file names: the GNU `diff -u --label a --label b` text. */
export function unifiedDiff(a: string, b: string, context: number): string {
  if (a === b) return ''
  const lines = createTwoFilesPatch('a', 'b', a, b, '', '', { context }).split('\n')
  const start = lines.findIndex((l) => l.startsWith('--- '))
  return lines.slice(start).map((l, i) => (i < 2 ? l.replace(/\t$/, '') : l.startsWith('@@') ? hunkHeader(l) : l)).join('\n')
}

export default handlerFor(manifest, ({ a, b, context = 3 }) => {
  let added = 0, removed = 0, unchanged = 0
  for (const part of diffLines(a, b)) {
    const n = lineCount(part.value)
    if (part.added) added += n
    else if (part.removed) removed += n
    else unchanged += n
  }
  return { unified_diff: unifiedDiff(a, b, context), added, removed, unchanged, similarity: Math.round(ratio([...a], [...b]) * 1e6) / 1e6, equal: a === b }
})
