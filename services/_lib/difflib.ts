/**
 * A port of Python's difflib.SequenceMatcher (isjunk=None, autojunk=True) for `ratio()`, so the similarity
 * matches Python exactly: 2*M/T, where M counts the matched elements of the longest-match decomposition.
 * Its work is up to len(a) x len(b) when many elements repeat without being popular enough to be junk (25,000
 * lines of 400 distinct values took 11 s), so every function takes a budget of inner steps and gives up with
 * `TooMuchWork` beyond it.
 */

/** Inner steps (element comparisons) a matcher may take by default: well under a second. */
export const MAX_MATCH_STEPS = 5_000_000

/** The matcher ran out of its step budget. */
export class TooMuchWork extends Error {
  constructor(steps: number) {
    super(`sequence matching would take more than ${steps} steps`)
  }
}

export function matchingBlocks<T>(a: T[], b: T[], maxSteps = MAX_MATCH_STEPS): Array<[number, number, number]> {
  let steps = 0
  const b2j = new Map<T, number[]>()
  b.forEach((x, j) => {
    const l = b2j.get(x)
    if (l) l.push(j)
    else b2j.set(x, [j])
  })
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1
    for (const [x, idx] of [...b2j]) if (idx.length > ntest) b2j.delete(x)
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let besti = alo,
      bestj = blo,
      bestsize = 0
    let j2len = new Map<number, number>()
    steps += ahi - alo
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>()
      for (const j of b2j.get(a[i]) ?? []) {
        if (j < blo) continue
        if (j >= bhi) break
        if (++steps > maxSteps) throw new TooMuchWork(maxSteps)
        const k = (j2len.get(j - 1) ?? 0) + 1
        next.set(j, k)
        if (k > bestsize) {
          besti = i - k + 1
          bestj = j - k + 1
          bestsize = k
        }
      }
      j2len = next
    }
    // isjunk is None, so nothing is junk: extend over equal neighbours (popular elements included), as difflib does
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--
      bestj--
      bestsize++
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++
    return [besti, bestj, bestsize]
  }
  const queue: Array<[number, number, number, number]> = [[0, a.length, 0, b.length]]
  const blocks: Array<[number, number, number]> = []
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!
    const [i, j, k] = longest(alo, ahi, blo, bhi)
    if (k) {
      blocks.push([i, j, k])
      if (alo < i && blo < j) queue.push([alo, i, blo, j])
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi])
    }
  }
  return blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1])
}

/** SequenceMatcher(None, a, b).ratio() */
export function ratio<T>(a: T[], b: T[], maxSteps = MAX_MATCH_STEPS): number {
  const total = a.length + b.length
  if (!total) return 1
  const m = matchingBlocks(a, b, maxSteps).reduce((s, [, , k]) => s + k, 0)
  return (2 * m) / total
}

/** SequenceMatcher(None, a, b).quick_ratio(): an upper bound of ratio() from the multiset intersection, linear. */
export function quickRatio<T>(a: T[], b: T[]): number {
  const total = a.length + b.length
  if (!total) return 1
  const avail = new Map<T, number>()
  for (const x of b) avail.set(x, (avail.get(x) ?? 0) + 1)
  let matches = 0
  for (const x of a) {
    const n = avail.get(x) ?? 0
    if (n > 0) {
      matches++
      avail.set(x, n - 1)
    }
  }
  return (2 * matches) / total
}

export type Opcode = ['equal' | 'replace' | 'delete' | 'insert', number, number, number, number]

/** SequenceMatcher.get_opcodes(), with get_matching_blocks()' merging of adjacent blocks. */
export function opcodes<T>(a: T[], b: T[], maxSteps = MAX_MATCH_STEPS): Opcode[] {
  const merged: Array<[number, number, number]> = []
  for (const [i, j, k] of matchingBlocks(a, b, maxSteps)) {
    const last = merged[merged.length - 1]
    if (last && last[0] + last[2] === i && last[1] + last[2] === j) last[2] += k
    else merged.push([i, j, k])
  }
  merged.push([a.length, b.length, 0])
  const out: Opcode[] = []
  let i = 0,
    j = 0
  for (const [ai, bj, size] of merged) {
    const tag = i < ai && j < bj ? 'replace' : i < ai ? 'delete' : j < bj ? 'insert' : ''
    if (tag) out.push([tag, i, ai, j, bj])
    i = ai + size
    j = bj + size
    if (size) out.push(['equal', ai, i, bj, j])
  }
  return out
}

/** SequenceMatcher.get_grouped_opcodes(n): the hunks of difflib.unified_diff with n lines of context. */
export function groupedOpcodes<T>(a: T[], b: T[], n: number, maxSteps = MAX_MATCH_STEPS): Opcode[][] {
  const codes = opcodes(a, b, maxSteps)
  if (!codes.length) codes.push(['equal', 0, 1, 0, 1])
  const first = codes[0],
    last = codes[codes.length - 1]
  if (first[0] === 'equal')
    codes[0] = ['equal', Math.max(first[1], first[2] - n), first[2], Math.max(first[3], first[4] - n), first[4]]
  if (last[0] === 'equal')
    codes[codes.length - 1] = [
      'equal',
      last[1],
      Math.min(last[2], last[1] + n),
      last[3],
      Math.min(last[4], last[3] + n),
    ]
  const groups: Opcode[][] = []
  let group: Opcode[] = []
  for (let [tag, i1, i2, j1, j2] of codes) {
    if (tag === 'equal' && i2 - i1 > 2 * n) {
      group.push([tag, i1, Math.min(i2, i1 + n), j1, Math.min(j2, j1 + n)])
      groups.push(group)
      group = []
      i1 = Math.max(i1, i2 - n)
      j1 = Math.max(j1, j2 - n)
    }
    group.push([tag, i1, i2, j1, j2])
  }
  if (group.length && !(group.length === 1 && group[0][0] === 'equal')) groups.push(group)
  return groups
}
