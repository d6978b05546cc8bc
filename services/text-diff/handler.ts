import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff'
import { handlerFor } from '../../runtime/sdk'
import { groupedOpcodes, ratio } from '../_lib/difflib'
import manifest from './manifest'

/** Time given to the `diff` package's Myers diff (O(N·D): minutes on 50,000 characters of unrelated lines) before the fallback. */
export const MYERS_BUDGET_MS = 1000

/** Lines with their newline kept, as both diff engines see them. */
const splitLines = (s: string) => (s === '' ? [] : s.split(/(?<=\n)/))

/**
 * Fallback hunks from Python difflib's line matcher (SequenceMatcher with autojunk, as difflib.unified_diff),
 * in the `diff` package's structure so both print the same way, "\ No newline at end of file" included.
 */
export function difflibPatch(a: string, b: string, context: number): StructuredPatch {
  const al = splitLines(a),
    bl = splitLines(b)
  const out = (prefix: string, line: string) =>
    line.endsWith('\n') ? [prefix + line.slice(0, -1)] : [prefix + line, '\\ No newline at end of file']
  const hunks: StructuredPatchHunk[] = groupedOpcodes(al, bl, context).map((group) => {
    const lines: string[] = []
    for (const [tag, i1, i2, j1, j2] of group) {
      if (tag === 'equal') for (const l of al.slice(i1, i2)) lines.push(...out(' ', l))
      if (tag === 'replace' || tag === 'delete') for (const l of al.slice(i1, i2)) lines.push(...out('-', l))
      if (tag === 'replace' || tag === 'insert') for (const l of bl.slice(j1, j2)) lines.push(...out('+', l))
    }
    const [, i1, , j1] = group[0]
    const [, , i2, , j2] = group[group.length - 1]
    return { oldStart: i1 + 1, oldLines: i2 - i1, newStart: j1 + 1, newLines: j2 - j1, lines }
  })
  return { oldFileName: 'a', newFileName: 'b', oldHeader: undefined, newHeader: undefined, hunks }
}

/** GNU diff -u and Python difflib write a one-line range as "N", not "N,1". */
const hunkHeader = (line: string) => line.replace(/^@@ -(\d+),1 \+/, '@@ -$1 +').replace(/ \+(\d+),1 @@/, ' +$1 @@')

/** The unified diff text in GNU `diff -u --label a --label b` form, and which engine produced it. */
export function unifiedDiff(
  a: string,
  b: string,
  context: number,
  budgetMs = MYERS_BUDGET_MS,
): { text: string; algorithm: 'myers' | 'difflib'; patch: StructuredPatch | null } {
  if (a === b) return { text: '', algorithm: 'myers', patch: null }
  const myers = structuredPatch('a', 'b', a, b, undefined, undefined, { context, timeout: budgetMs })
  const patch = myers ?? difflibPatch(a, b, context)
  const text = formatPatch(patch, FILE_HEADERS_ONLY)
    .split('\n')
    .map((l) => (l.startsWith('@@') ? hunkHeader(l) : l))
    .join('\n')
  return { text, algorithm: myers ? 'myers' : 'difflib', patch }
}

export default handlerFor(manifest, ({ a, b, context = 3 }) => {
  const { text, algorithm, patch } = unifiedDiff(a, b, context)
  let added = 0,
    removed = 0
  for (const h of patch?.hunks ?? [])
    for (const l of h.lines) {
      if (l[0] === '+') added++
      else if (l[0] === '-') removed++
    }
  return {
    unified_diff: text,
    added,
    removed,
    unchanged: splitLines(a).length - removed,
    similarity: Math.round(ratio([...a], [...b]) * 1e6) / 1e6,
    equal: a === b,
    algorithm,
  }
})
