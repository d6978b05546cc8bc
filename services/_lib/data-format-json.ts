/**
 * A strict JSON (RFC 8259) reader for the data-format services. It keeps what JSON.parse loses: the order of
 * object members as written (JS objects move integer-like keys first), number lexemes exactly as written, and,
 * on error, the position of the first problem with the same message and position as Python's `json.loads`
 * (CPython 3.11: "Expecting ',' delimiter: line 1 column 9 (char 8)"). Nesting is capped (default 64 levels),
 * so recursion is bounded. NaN and Infinity are not JSON and are refused (Python accepts them).
 */
import { ServiceError, invalid } from '../../runtime/sdk'

export type JNode =
  | { k: 'obj'; entries: Array<[string, JNode]> }
  | { k: 'arr'; items: JNode[] }
  | { k: 'str'; v: string }
  | { k: 'num'; raw: string }
  | { k: 'lit'; v: boolean | null }

export interface TextError {
  message: string
  /** 1-based line (lines end at `\n`). */
  line: number
  /** 1-based column, in Unicode code points. */
  column: number
  /** 0-based offset, in Unicode code points (Python's `pos`). */
  position: number
  /** Set when the text may be well-formed but exceeds a limit of this service (depth, aliases, entities). */
  limit?: boolean
}

/** Maximum nesting of objects and arrays accepted by the data-format services. */
export const MAX_DEPTH = 64

/**
 * Most characters in one answer of a data or encoding service: ten times the 1,000,000-character input cap. An
 * answer that would be longer (deep indentation, padding of ragged rows, repeated long paths) is refused before
 * it is built.
 */
export const MAX_ANSWER_CHARS = 10_000_000

/** The 422 for an answer that would pass MAX_ANSWER_CHARS; `hint` says what to send instead. */
export const answerTooLarge = (field: string, hint: string): ServiceError =>
  new ServiceError(
    422,
    'INPUT_TOO_LARGE',
    `${field}: the answer would be longer than ${MAX_ANSWER_CHARS} characters; ${hint}`,
    { details: [{ path: `/${field}`, message: `the answer would be longer than ${MAX_ANSWER_CHARS} characters` }] },
  )

/**
 * Length of JSON.stringify(v) (compact) for a plain JSON value, without building it. `memo` keeps the length of
 * objects and arrays already measured, so measuring many overlapping subtrees stays linear.
 */
export function jsonLength(v: unknown, memo?: WeakMap<object, number>): number {
  if (v === null || typeof v !== 'object') return (JSON.stringify(v) ?? 'null').length
  const known = memo?.get(v)
  if (known !== undefined) return known
  let n = 2
  if (Array.isArray(v)) {
    for (const x of v) n += jsonLength(x, memo) + 1
    if (v.length) n--
  } else {
    const entries = Object.entries(v)
    for (const [k, x] of entries) n += JSON.stringify(k).length + 2 + jsonLength(x, memo)
    if (entries.length) n--
  }
  memo?.set(v, n)
  return n
}

/** Python-style line/column of a UTF-16 offset (`\n` ends a line; columns count code points, from 1). */
export function lineCol(text: string, offset: number): { line: number; column: number; position: number } {
  const before = text.slice(0, offset)
  const nl = before.lastIndexOf('\n')
  let line = 1
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line++
  const cps = (s: string) => {
    let n = 0
    for (const _ of s) n++
    return n
  }
  return { line, column: cps(before.slice(nl + 1)) + 1, position: cps(before) }
}

class Fail {
  constructor(
    readonly msg: string,
    readonly at: number,
  ) {}
}

const WS = new Set([' ', '\t', '\n', '\r'])
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y
const ESC: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }

class Reader {
  duplicates = 0
  constructor(
    readonly s: string,
    readonly maxDepth: number,
  ) {}

  ws(i: number): number {
    while (i < this.s.length && WS.has(this.s[i])) i++
    return i
  }

  /** Python's scan_once: undefined means "no value starts here". */
  value(i: number, depth: number): [JNode, number] | undefined {
    const s = this.s
    const c = s[i]
    if (c === '"') return this.string(i + 1)
    if (c === '{' || c === '[') {
      if (depth >= this.maxDepth) throw new Fail(`Nesting deeper than ${this.maxDepth} levels`, i)
      return c === '{' ? this.object(i + 1, depth + 1) : this.array(i + 1, depth + 1)
    }
    if (c === 'n' && s.startsWith('null', i)) return [{ k: 'lit', v: null }, i + 4]
    if (c === 't' && s.startsWith('true', i)) return [{ k: 'lit', v: true }, i + 4]
    if (c === 'f' && s.startsWith('false', i)) return [{ k: 'lit', v: false }, i + 5]
    NUMBER.lastIndex = i
    const m = NUMBER.exec(s)
    if (m) return [{ k: 'num', raw: m[0] }, i + m[0].length]
    return undefined
  }

  need(i: number, depth: number): [JNode, number] {
    const r = this.value(i, depth)
    if (!r) throw new Fail('Expecting value', i)
    return r
  }

  string(i: number): [JNode, number] {
    const s = this.s
    const begin = i - 1
    let out = ''
    for (;;) {
      let j = i
      while (j < s.length) {
        const code = s.charCodeAt(j)
        if (code === 34 || code === 92) break
        if (code < 0x20) throw new Fail('Invalid control character at', j)
        j++
      }
      if (j >= s.length) throw new Fail('Unterminated string starting at', begin)
      out += s.slice(i, j)
      if (s[j] === '"') return [{ k: 'str', v: out }, j + 1]
      // backslash at j
      if (j + 1 >= s.length) throw new Fail('Unterminated string starting at', begin)
      const e = s[j + 1]
      if (e !== 'u') {
        const r = ESC[e]
        if (r === undefined) throw new Fail('Invalid \\escape', j)
        out += r
        i = j + 2
        continue
      }
      const hex = s.slice(j + 2, j + 6)
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Fail('Invalid \\uXXXX escape', j + 1)
      out += String.fromCharCode(parseInt(hex, 16))
      i = j + 6
    }
  }

  object(i: number, depth: number): [JNode, number] {
    const s = this.s
    const entries: Array<[string, JNode]> = []
    const seen = new Map<string, number>()
    i = this.ws(i)
    if (s[i] === '}') return [{ k: 'obj', entries }, i + 1]
    if (s[i] !== '"') throw new Fail('Expecting property name enclosed in double quotes', i)
    i++
    for (;;) {
      const [key, afterKey] = this.string(i) as [{ k: 'str'; v: string }, number]
      i = this.ws(afterKey)
      if (s[i] !== ':') throw new Fail("Expecting ':' delimiter", i)
      i = this.ws(i + 1)
      const [val, afterVal] = this.need(i, depth)
      const at = seen.get(key.v)
      if (at === undefined) {
        seen.set(key.v, entries.length)
        entries.push([key.v, val])
      } else {
        entries[at][1] = val
        this.duplicates++
      }
      i = this.ws(afterVal)
      const c = s[i]
      i++
      if (c === '}') return [{ k: 'obj', entries }, i]
      if (c !== ',') throw new Fail("Expecting ',' delimiter", i - 1)
      i = this.ws(i)
      if (s[i] !== '"') throw new Fail('Expecting property name enclosed in double quotes', i)
      i++
    }
  }

  array(i: number, depth: number): [JNode, number] {
    const s = this.s
    const items: JNode[] = []
    i = this.ws(i)
    if (s[i] === ']') return [{ k: 'arr', items }, i + 1]
    for (;;) {
      const [val, after] = this.need(i, depth)
      items.push(val)
      i = this.ws(after)
      const c = s[i]
      i++
      if (c === ']') return [{ k: 'arr', items }, i]
      if (c !== ',') throw new Fail("Expecting ',' delimiter", i - 1)
      i = this.ws(i)
    }
  }
}

export interface JsonParse {
  ok: true
  node: JNode
  /** Object members that repeated an earlier key (the last value wins, at the first position). */
  duplicates: number
}

/** Parses JSON text, or describes the first error (Python's message and position). A leading BOM is ignored. */
export function readJson(text: string, maxDepth = MAX_DEPTH): JsonParse | { ok: false; error: TextError } {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const r = new Reader(text, maxDepth)
  try {
    const i = r.ws(start)
    const [node, end] = r.need(i, 0)
    const rest = r.ws(end)
    if (rest !== text.length) throw new Fail('Extra data', rest)
    return { ok: true, node, duplicates: r.duplicates }
  } catch (e) {
    if (!(e instanceof Fail)) throw e
    return {
      ok: false,
      error: { message: e.msg, ...lineCol(text, e.at), ...(e.msg.startsWith('Nesting deeper') ? { limit: true } : {}) },
    }
  }
}

/** `message: line L column C (char P)`, as Python prints a JSONDecodeError. */
export const describeError = (e: TextError) => `${e.message}: line ${e.line} column ${e.column} (char ${e.position})`

/** Parses JSON text into a tree, or throws a 422 naming `field` with the line and column of the first error. */
export function parseJsonTree(text: string, field: string, maxDepth = MAX_DEPTH): JsonParse {
  const r = readJson(text, maxDepth)
  if (!r.ok) {
    throw new ServiceError(422, 'INVALID_INPUT', `${field}: invalid JSON: ${describeError(r.error)}`, {
      details: [{ path: `/${field}`, message: describeError(r.error), line: r.error.line, column: r.error.column }],
    })
  }
  return r
}

/** Sets an own property, even `__proto__`, without touching the prototype. */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
  else o[k] = v
}

/** A finite number from a JSON lexeme, or a 422 (1e400 overflows an IEEE-754 double). */
export function toNumber(raw: string, field: string): number {
  const n = Number(raw)
  if (!Number.isFinite(n)) throw invalid(field, `number ${raw.slice(0, 40)} is out of the range of a 64-bit float`)
  return n
}

/** The tree as plain JS values (numbers as doubles). */
export function toJs(node: JNode, field: string): unknown {
  switch (node.k) {
    case 'str':
      return node.v
    case 'lit':
      return node.v
    case 'num':
      return toNumber(node.raw, field)
    case 'arr':
      return node.items.map((n) => toJs(n, field))
    case 'obj': {
      const o: Record<string, unknown> = {}
      for (const [k, v] of node.entries) setOwn(o, k, toJs(v, field))
      return o
    }
  }
}

/** Parses JSON text to plain JS values; 422 on syntax errors, too deep nesting or overflowing numbers. */
export function parseJsonValue(text: string, field: string, maxDepth = MAX_DEPTH): unknown {
  return toJs(parseJsonTree(text, field, maxDepth).node, field)
}

/** Compares strings by code point, as Python sorts `str`. */
export const byCodePoint = (a: string, b: string): number => {
  const x = [...a]
  const y = [...b]
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!
    if (d) return d
  }
  return x.length - y.length
}

/**
 * Serializes a tree like Python's json.dumps(..., ensure_ascii=False): `indent` null gives the compact form
 * (separators `,` and `:`), a number puts one member per line with that many spaces per level (0 = newlines
 * only). Numbers are written exactly as they were read.
 */
export function writeJson(
  node: JNode,
  indent: number | null,
  sortKeys: boolean,
  field = 'input',
  maxChars = MAX_ANSWER_CHARS,
): string {
  const out: string[] = []
  let size = 0
  const push = (s: string) => {
    size += s.length
    if (size > maxChars) throw answerTooLarge(field, 'send less data, or ask for a smaller indent or the compact form')
    out.push(s)
  }
  const walk = (n: JNode, level: number): void => {
    switch (n.k) {
      case 'str':
        push(JSON.stringify(n.v))
        return
      case 'num':
        push(n.raw)
        return
      case 'lit':
        push(String(n.v))
        return
    }
    const open = n.k === 'obj' ? '{' : '['
    const close = n.k === 'obj' ? '}' : ']'
    const list =
      n.k === 'obj'
        ? sortKeys
          ? [...n.entries].sort((a, b) => byCodePoint(a[0], b[0]))
          : n.entries
        : n.items.map((v) => [null, v] as const)
    if (list.length === 0) {
      push(open + close)
      return
    }
    const inner = indent === null ? '' : '\n' + ' '.repeat(indent * (level + 1))
    const outer = indent === null ? '' : '\n' + ' '.repeat(indent * level)
    push(open)
    list.forEach(([k, v], i) => {
      push(i ? ',' + inner : inner)
      if (k !== null) push(JSON.stringify(k) + (indent === null ? ':' : ': '))
      walk(v, level + 1)
    })
    push(outer + close)
  }
  walk(node, 0)
  return out.join('')
}

/** Nesting depth of a tree (a scalar is 0, `[]` is 1). */
export function treeDepth(n: JNode): number {
  if (n.k !== 'obj' && n.k !== 'arr') return 0
  let d = 0
  for (const c of n.k === 'obj' ? n.entries.map((e) => e[1]) : n.items) d = Math.max(d, treeDepth(c))
  return d + 1
}

/** JSON type name of a tree node. */
export const nodeType = (n: JNode): 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' =>
  n.k === 'obj'
    ? 'object'
    : n.k === 'arr'
      ? 'array'
      : n.k === 'str'
        ? 'string'
        : n.k === 'num'
          ? 'number'
          : n.v === null
            ? 'null'
            : 'boolean'

/**
 * Checks a plain JS value (such as a parsed request body) for nesting deeper than `maxDepth` and for numbers
 * that overflowed to Infinity when the body was parsed (1e400); 422 naming `field`. Iterative, so hostile depth
 * cannot overflow the stack.
 */
export function assertDepth(value: unknown, field: string, maxDepth = MAX_DEPTH): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length) {
    const [v, d] = stack.pop()!
    if (typeof v === 'number' && !Number.isFinite(v))
      throw invalid(field, 'holds a number out of the range of a 64-bit float')
    if (v === null || typeof v !== 'object') continue
    const depth = d + 1
    if (depth > maxDepth) throw invalid(field, `nesting is deeper than ${maxDepth} levels`)
    if (depth > deepest) deepest = depth
    for (const c of Array.isArray(v) ? v : Object.values(v))
      if (c !== null && (typeof c === 'object' || typeof c === 'number')) stack.push([c, depth])
  }
  return deepest
}

/** Canonical JSON of a plain JS value (object keys sorted), so that equal JSON values have equal text. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(v) ?? 'null'
}

/** UTF-8 byte length. */
export const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8')

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** One JSONPath step: `[3]` for an index, `.name` for an identifier key, `['any key']` otherwise. */
export const pathStep = (k: string | number): string =>
  typeof k === 'number' ? `[${k}]` : IDENT.test(k) ? `.${k}` : `['${k.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`

/** JSON Pointer (RFC 6901) escaping of one reference token. */
export const pointerToken = (k: string | number): string => String(k).replace(/~/g, '~0').replace(/\//g, '~1')

/** A plain JS value as a tree (objects keep their key order). */
export function fromJs(v: unknown): JNode {
  if (v === null || v === undefined) return { k: 'lit', v: null }
  if (typeof v === 'boolean') return { k: 'lit', v }
  if (typeof v === 'number') return { k: 'num', raw: Number.isFinite(v) ? JSON.stringify(v) : 'null' }
  if (typeof v === 'string') return { k: 'str', v }
  if (Array.isArray(v)) return { k: 'arr', items: v.map(fromJs) }
  return { k: 'obj', entries: Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, fromJs(x)]) }
}
