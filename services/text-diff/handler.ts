import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff'
import { handlerFor } from '../../runtime/sdk'
import { groupedOpcodes, quickRatio, ratio, TooMuchWork } from '../_lib/difflib'
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

/** One hunk that removes every line of a and adds every line of b: correct, linear, not minimal. */
function wholePatch(a: string, b: string): StructuredPatch {
  const al = splitLines(a),
    bl = splitLines(b)
  const out = (prefix: string, line: string) =>
    line.endsWith('\n') ? [prefix + line.slice(0, -1)] : [prefix + line, '\\ No newline at end of file']
  const lines = [...al.flatMap((l) => out('-', l)), ...bl.flatMap((l) => out('+', l))]
  return {
    oldFileName: 'a',
    newFileName: 'b',
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [
      { oldStart: al.length ? 1 : 0, oldLines: al.length, newStart: bl.length ? 1 : 0, newLines: bl.length, lines },
    ],
  }
}

/** GNU diff -u and Python difflib write a one-line range as "N", not "N,1". */
const hunkHeader = (line: string) => line.replace(/^@@ -(\d+),1 \+/, '@@ -$1 +').replace(/ \+(\d+),1 @@/, ' +$1 @@')

/** The unified diff text in GNU `diff -u --label a --label b` form, and which engine produced it. */
export function unifiedDiff(
  a: string,
  b: string,
  context: number,
  budgetMs = MYERS_BUDGET_MS,
): { text: string; algorithm: 'myers' | 'difflib' | 'whole'; patch: StructuredPatch | null } {
  if (a === b) return { text: '', algorithm: 'myers', patch: null }
  const myers = structuredPatch('a', 'b', a, b, undefined, undefined, { context, timeout: budgetMs })
  let algorithm: 'myers' | 'difflib' | 'whole' = myers ? 'myers' : 'difflib'
  let patch = myers
  if (!patch)
    try {
      patch = difflibPatch(a, b, context)
    } catch (e) {
      if (!(e instanceof TooMuchWork)) throw e
      patch = wholePatch(a, b)
      algorithm = 'whole'
    }
  const text = formatPatch(patch, FILE_HEADERS_ONLY)
    .split('\n')
    .map((l) => (l.startsWith('@@') ? hunkHeader(l) : l))
    .join('\n')
  return { text, algorithm, patch }
}

/** difflib's ratio() over characters, or its quick_ratio() upper bound when exact matching is over budget. */
function similarity(a: string, b: string): { value: number; method: 'ratio' | 'quick_ratio' } {
  const ca = [...a],
    cb = [...b]
  try {
    return { value: ratio(ca, cb), method: 'ratio' }
  } catch (e) {
    if (!(e instanceof TooMuchWork)) throw e
    return { value: quickRatio(ca, cb), method: 'quick_ratio' }
  }
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
  const sim = similarity(a, b)
  return {
    unified_diff: text,
    added,
    removed,
    unchanged: splitLines(a).length - removed,
    similarity: Math.round(sim.value * 1e6) / 1e6,
    similarity_method: sim.method,
    equal: a === b,
    algorithm,
  }
})
