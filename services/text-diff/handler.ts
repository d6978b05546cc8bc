import { createTwoFilesPatch, diffLines } from 'diff'
import { handlerFor } from '../../runtime/sdk'
import { ratio } from '../_lib/difflib'
import manifest from './manifest'

const lineCount = (v: string) => v.split('\n').length - (v.endsWith('\n') ? 1 : 0)

export default handlerFor(manifest, ({ a, b, context = 3 }) => {
  let added = 0, removed = 0, unchanged = 0
  for (const part of diffLines(a, b)) {
    const n = lineCount(part.value)
    if (part.added) added += n
    else if (part.removed) removed += n
    else unchanged += n
  }
  const patch = a === b ? '' : createTwoFilesPatch('a', 'b', a, b, '', '', { context }).split('\n').filter((l) => !/^=+$/.test(l) && !l.startsWith('Index:')).join('\n').replace(/^--- a\t\n\+\+\+ b\t/m, '--- a\n+++ b')
  return { unified_diff: patch, added, removed, unchanged, similarity: Math.round(ratio([...a], [...b]) * 1e6) / 1e6, equal: a === b }
})
