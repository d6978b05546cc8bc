/**
 * A small JSONPath subset (RFC 9535 syntax where it overlaps): `$` root (optional), `.name`, `['name']` / `["name"]`,
 * `[n]` and `[-n]` (from the end), `*` / `[*]` wildcards and `..` descendants. A dotted all-digit name (`a.0.b`)
 * also indexes an array. Lookups use own members only, so `constructor` or `length` are never found by accident.
 */
import { invalid } from '../../runtime/sdk'
import { pathStep } from '../_lib/data-format-json'

type Sel = { k: 'name'; v: string } | { k: 'index'; v: number } | { k: 'wild' }
export type Step = Sel & { desc: boolean }

const NAME = /^[^.[\]\s'"*]+/

export function parsePath(src: string, field: string): Step[] {
  const steps: Step[] = []
  let i = 0
  const s = src.trim()
  const fail = (msg: string): never => {
    throw invalid(field, `${msg} at character ${i + 1} of ${JSON.stringify(s.slice(0, 200))}`)
  }
  if (s[0] === '$') i = 1
  else {
    const m = NAME.exec(s)
    if (m) {
      steps.push({ k: 'name', v: m[0], desc: false })
      i = m[0].length
    } else if (s[0] === '*') {
      steps.push({ k: 'wild', desc: false })
      i = 1
    } else if (s[0] !== '[') fail('expected $, a name or [')
  }
  while (i < s.length) {
    let desc = false
    if (s.startsWith('..', i)) {
      desc = true
      i += 2
    } else if (s[i] === '.') i++
    else if (s[i] !== '[') fail('expected . or [')
    if (s[i] === '[') {
      const close = (q: string) => {
        let j = i + 2
        let v = ''
        while (j < s.length && s[j] !== q) {
          if (s[j] === '\\' && j + 1 < s.length) {
            v += s[j + 1]
            j += 2
          } else v += s[j++]
        }
        if (s[j] !== q || s[j + 1] !== ']') fail('unclosed quoted name')
        i = j + 2
        return v
      }
      if (s[i + 1] === "'" || s[i + 1] === '"') steps.push({ k: 'name', v: close(s[i + 1]), desc })
      else {
        const m = /^\[\s*(\*|-?\d{1,15})\s*\]/.exec(s.slice(i))
        if (!m) fail('expected [n], [*] or a quoted name')
        steps.push(m![1] === '*' ? { k: 'wild', desc } : { k: 'index', v: Number(m![1]), desc })
        i += m![0].length
      }
    } else if (s[i] === '*') {
      steps.push({ k: 'wild', desc })
      i++
    } else {
      const m = NAME.exec(s.slice(i))
      if (!m) fail('expected a name')
      steps.push({ k: 'name', v: m![0], desc })
      i += m![0].length
    }
  }
  return steps
}

type Node = { path: string; value: unknown }

function children(n: Node): Node[] {
  const v = n.value
  if (Array.isArray(v)) return v.map((x, i) => ({ path: n.path + pathStep(i), value: x }))
  if (v !== null && typeof v === 'object')
    return Object.entries(v).map(([k, x]) => ({ path: n.path + pathStep(k), value: x }))
  return []
}

function select(n: Node, sel: Sel): Node[] {
  const v = n.value
  if (sel.k === 'wild') return children(n)
  if (Array.isArray(v)) {
    const idx = sel.k === 'index' ? sel.v : /^\d+$/.test(sel.v) ? Number(sel.v) : NaN
    const at = idx < 0 ? v.length + idx : idx
    return Number.isInteger(at) && at >= 0 && at < v.length ? [{ path: n.path + pathStep(at), value: v[at] }] : []
  }
  if (sel.k === 'name' && v !== null && typeof v === 'object' && Object.hasOwn(v, sel.v))
    return [{ path: n.path + pathStep(sel.v), value: (v as Record<string, unknown>)[sel.v] }]
  return []
}

/** Most nodes all paths of one call may visit together (descendant steps after wildcards can multiply work). */
export const MAX_VISITS = 1_000_000

/**
 * Matches of a path, in document order; stops at `limit` (then `truncated`); 422 once the paths of the call have
 * visited MAX_VISITS nodes together (`budget.visits` is shared by the paths of one call).
 */
export function evaluate(
  data: unknown,
  steps: Step[],
  limit: number,
  field: string,
  budget: { visits: number } = { visits: 0 },
): { nodes: Node[]; truncated: boolean } {
  let nodes: Node[] = [{ path: '$', value: data }]
  let truncated = false
  for (const st of steps) {
    const next: Node[] = []
    const visit = (n: Node) => {
      if (++budget.visits > MAX_VISITS)
        throw invalid(field, `the paths visit more than ${MAX_VISITS} nodes together; use fewer or more specific paths`)
      if (next.length >= limit) {
        truncated = true
        return
      }
      for (const m of select(n, st))
        if (next.length < limit) next.push(m)
        else truncated = true
      if (st.desc) for (const c of children(n)) visit(c)
    }
    for (const n of nodes) visit(n)
    nodes = next
  }
  return { nodes, truncated }
}
