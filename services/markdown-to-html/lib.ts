/**
 * A bound on what marked may spend on emphasis in one document. For every `*` / `_` run that can open emphasis,
 * marked scans forward to its closer, or, when there is none, to the paragraph's last run of that character not
 * preceded by a space; so a paragraph of unmatched delimiters (`*a _` repeated) costs runs x length: 32 KB took
 * 6.5 s, 480 KB 6.7 minutes.
 */

/** Most emphasis scanning (characters, summed over the opening runs) accepted in one document (1 s or less on a 2-core machine). */
export const MAX_EMPHASIS_SCAN = 5_000_000

type Delim = '*' | '_'
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f'
const isPunct = (c: string) => /[\p{P}\p{S}]/u.test(c)
const FENCE = /^ {0,3}(`{3,}|~{3,})/

/**
 * An estimate of marked's emphasis scanning for `markdown`, in one linear pass. Paragraphs are the lines between
 * blank lines (fenced code skipped). Runs of * and _ are classified with CommonMark's flanking rules; a run that
 * can only close matches the nearest open run of its character (the scan from that opener ends there), and every
 * opener left unmatched at the end of its paragraph scans to the last run of its character not preceded by
 * whitespace, as marked does. A run that can both open and close is counted as an opener only (never as the end
 * of a scan), so the estimate errs high. Backslash-escaped characters are not runs.
 */
export function emphasisScan(markdown: string): number {
  let total = 0
  let para: string[] = []
  const flush = () => {
    if (para.length) total += paragraphScan(para.join('\n'))
    para = []
  }
  let fence = ''
  for (const line of markdown.split('\n')) {
    const f = FENCE.exec(line)?.[1]
    if (fence) {
      if (f && f[0] === fence[0] && f.length >= fence.length) fence = ''
      continue
    }
    if (f || !line.trim()) {
      flush()
      if (f) fence = f
      continue
    }
    para.push(line)
  }
  flush()
  return total
}

/** Where each backtick run of `text` starts, by run length (for finding a code span's end in linear time). */
function backtickRuns(text: string): Map<number, { at: number[]; next: number }> {
  const runs = new Map<number, { at: number[]; next: number }>()
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '`') continue
    let j = i
    while (text[j + 1] === '`') j++
    const len = j - i + 1
    if (!runs.has(len)) runs.set(len, { at: [], next: 0 })
    runs.get(len)!.at.push(i)
    i = j
  }
  return runs
}

function paragraphScan(text: string): number {
  let total = 0
  const open: Record<Delim, number[]> = { '*': [], _: [] }
  const lastCloser: Record<Delim, number> = { '*': -1, _: -1 }
  const ticks = backtickRuns(text)
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '\\') {
      i++
      continue
    }
    if (ch === '`') {
      // A code span: skip to the next backtick run of the same length (marked masks code spans).
      let j = i
      while (text[j + 1] === '`') j++
      const runs = ticks.get(j - i + 1)!
      while (runs.next < runs.at.length && runs.at[runs.next] <= i) runs.next++
      i = runs.next < runs.at.length ? runs.at[runs.next] + j - i : j
      continue
    }
    if (ch !== '*' && ch !== '_') continue
    let j = i
    while (text[j + 1] === ch) j++
    const prev = text[i - 1] ?? '\n'
    const next = text[j + 1] ?? '\n'
    const left = !isSpace(next) && (!isPunct(next) || isSpace(prev) || isPunct(prev))
    const right = !isSpace(prev) && (!isPunct(prev) || isSpace(next) || isPunct(next))
    const canOpen = ch === '*' ? left : left && (!right || isPunct(prev))
    const canClose = ch === '*' ? right : right && (!left || isPunct(next))
    if (!isSpace(prev)) lastCloser[ch] = i
    const stack = open[ch]
    if (canClose && !canOpen && stack.length) total += i - stack.pop()!
    else if (canOpen) stack.push(i)
    i = j
  }
  for (const c of ['*', '_'] as const) for (const o of open[c]) total += Math.max(0, lastCloser[c] - o)
  return total
}
