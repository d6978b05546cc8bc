/**
 * Structural JSON diff producing an RFC 6902 patch (add / remove / replace, JSON Pointer paths per RFC 6901).
 * Objects are compared member by member; arrays by their longest common subsequence of equal elements
 * (after trimming the common prefix and suffix), so an insertion in the middle is one `add`. A removed and an
 * added element at the same place are diffed in depth. Applying the ops in order turns `a` into `b`.
 */
import {
  MAX_ANSWER_CHARS,
  answerTooLarge,
  canonicalJson as canon,
  jsonLength,
  pointerToken,
} from '../_lib/data-format-json'

export type Op = { op: 'add' | 'remove' | 'replace'; path: string; value?: unknown }

/** Cells of the LCS table allowed for one array pair, and for one whole diff; past either, arrays are compared position by position. */
export const MAX_LCS_CELLS = 1_000_000
export const MAX_TOTAL_CELLS = 5_000_000
/** What one diff may still spend: LCS cells, and characters of the patch (paths repeat long keys; values are subtrees). */
type Budget = { cells: number; chars: number; sizes: WeakMap<object, number> }
const newBudget = (): Budget => ({ cells: MAX_TOTAL_CELLS, chars: MAX_ANSWER_CHARS, sizes: new WeakMap() })

function emit(ops: Op[], op: Op, budget: Budget): void {
  budget.chars -= op.path.length + 30 + ('value' in op ? jsonLength(op.value, budget.sizes) : 0)
  if (budget.chars < 0) throw answerTooLarge('b', 'the patch repeats long keys or values: diff smaller documents')
  ops.push(op)
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

export function diff(a: unknown, b: unknown, path: string, ops: Op[], budget: Budget = newBudget()): void {
  if (a === b) return
  if (isObj(a) && isObj(b)) {
    for (const k of Object.keys(a)) {
      if (!Object.hasOwn(b, k)) emit(ops, { op: 'remove', path: `${path}/${pointerToken(k)}` }, budget)
      else diff(a[k], b[k], `${path}/${pointerToken(k)}`, ops, budget)
    }
    for (const k of Object.keys(b))
      if (!Object.hasOwn(a, k)) emit(ops, { op: 'add', path: `${path}/${pointerToken(k)}`, value: b[k] }, budget)
    return
  }
  if (Array.isArray(a) && Array.isArray(b)) return diffArray(a, b, path, ops, budget)
  if (canon(a) !== canon(b)) emit(ops, { op: 'replace', path, value: b }, budget)
}

type Edit = 'keep' | 'del' | 'ins'

function script(ka: string[], kb: string[], budget: Budget): Edit[] {
  const n = ka.length
  const m = kb.length
  if (n * m > MAX_LCS_CELLS || n * m > budget.cells) {
    // Too large for LCS: position by position, then the surplus.
    const out: Edit[] = []
    for (let i = 0; i < Math.min(n, m); i++)
      out.push(...(ka[i] === kb[i] ? (['keep'] as Edit[]) : (['del', 'ins'] as Edit[])))
    for (let i = m; i < n; i++) out.push('del')
    for (let i = n; i < m; i++) out.push('ins')
    return out
  }
  budget.cells -= n * m
  const w = m + 1
  const L = new Uint32Array((n + 1) * w)
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      L[i * w + j] = ka[i] === kb[j] ? L[(i + 1) * w + j + 1] + 1 : Math.max(L[(i + 1) * w + j], L[i * w + j + 1])
  const out: Edit[] = []
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (ka[i] === kb[j]) {
      out.push('keep')
      i++
      j++
    } else if (L[(i + 1) * w + j] >= L[i * w + j + 1]) {
      out.push('del')
      i++
    } else {
      out.push('ins')
      j++
    }
  }
  while (i++ < n) out.push('del')
  while (j++ < m) out.push('ins')
  return out
}

function diffArray(a: unknown[], b: unknown[], path: string, ops: Op[], budget: Budget): void {
  const ka = a.map(canon)
  const kb = b.map(canon)
  let p = 0
  while (p < a.length && p < b.length && ka[p] === kb[p]) p++
  let s = 0
  while (s < a.length - p && s < b.length - p && ka[a.length - 1 - s] === kb[b.length - 1 - s]) s++
  const edits = script(ka.slice(p, a.length - s), kb.slice(p, b.length - s), budget)
  let idx = p
  let ai = p
  let bi = p
  for (let e = 0; e < edits.length; ) {
    if (edits[e] === 'keep') {
      idx++
      ai++
      bi++
      e++
      continue
    }
    let dels = 0
    let ins = 0
    while (e < edits.length && edits[e] !== 'keep') {
      if (edits[e] === 'del') dels++
      else ins++
      e++
    }
    const pairs = Math.min(dels, ins)
    for (let k = 0; k < pairs; k++) diff(a[ai + k], b[bi + k], `${path}/${idx++}`, ops, budget)
    for (let k = pairs; k < dels; k++) emit(ops, { op: 'remove', path: `${path}/${idx}` }, budget)
    for (let k = pairs; k < ins; k++) emit(ops, { op: 'add', path: `${path}/${idx++}`, value: b[bi + k] }, budget)
    ai += dels
    bi += ins
  }
}
