/**
 * How an agent's spelling of an enum value is compared with the canonical literal: case-insensitive, with `-`, `_`
 * and whitespace treated alike ("Percent-Of", "percent of" and "percent_of" are one key).
 */

/** Longest value that is normalised; longer strings are never enum values and are left alone. */
export const MAX_ENUM_CHARS = 80

/** The comparison key of an enum value. */
export function enumKey(s: string): string {
  return s
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_')
}

/** Optimal-string-alignment (restricted Damerau-Levenshtein) distance; O(a·b), callers pass short strings. */
export function editDistance(a: string, b: string): number {
  const m = a.length,
    n = b.length
  if (!m || !n) return m + n
  let prev2: number[] = [],
    prev = Array.from({ length: n + 1 }, (_, j) => j)
  for (let i = 1; i <= m; i++) {
    const cur = [i]
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1)
      cur.push(d)
    }
    prev2 = prev
    prev = cur
  }
  return prev[n]
}

/**
 * The allowed value closest to `got` (compared by enumKey), or undefined when none is plausibly meant:
 * within a third of the longer length (at least 2 edits), or one key containing the other.
 */
export function nearest(got: string, allowed: readonly string[]): string | undefined {
  if (got.length > MAX_ENUM_CHARS) return undefined
  const g = enumKey(got)
  if (!g) return undefined
  let best: string | undefined,
    bestD = Infinity
  for (const a of allowed) {
    const k = enumKey(a)
    let d = editDistance(g, k)
    if (
      d > Math.max(2, Math.floor(Math.max(g.length, k.length) / 3)) &&
      !(g.length >= 3 && (k.includes(g) || g.includes(k)))
    )
      continue
    if (k.includes(g) || g.includes(k)) d = Math.min(d, Math.abs(k.length - g.length))
    if (d < bestD) (best = a), (bestD = d)
  }
  return best
}
