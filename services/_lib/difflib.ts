/**
 * A port of Python's difflib.SequenceMatcher (isjunk=None, autojunk=True) for `ratio()`, so the similarity
 * matches Python exactly: 2*M/T, where M counts the matched elements of the longest-match decomposition.
 */
export function matchingBlocks<T>(a: T[], b: T[]): Array<[number, number, number]> {
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
    let besti = alo, bestj = blo, bestsize = 0
    let j2len = new Map<number, number>()
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>()
      for (const j of b2j.get(a[i]) ?? []) {
        if (j < blo) continue
        if (j >= bhi) break
        const k = (j2len.get(j - 1) ?? 0) + 1
        next.set(j, k)
        if (k > bestsize) { besti = i - k + 1; bestj = j - k + 1; bestsize = k }
      }
      j2len = next
    }
    // isjunk is None, so nothing is junk: extend over equal neighbours (popular elements included), as difflib does
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) { besti--; bestj--; bestsize++ }
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
export function ratio<T>(a: T[], b: T[]): number {
  const total = a.length + b.length
  if (!total) return 1
  const m = matchingBlocks(a, b).reduce((s, [, , k]) => s + k, 0)
  return (2 * m) / total
}
