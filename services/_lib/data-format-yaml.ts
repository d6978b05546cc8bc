/**
 * YAML helpers for the data-format services, on the `yaml` package (YAML 1.2, core schema: `yes`/`no` are
 * strings, `~`/`null` are null). Duplicate keys are errors; aliases are capped (maxAliasCount 100, so a
 * "billion laughs" document is refused); nesting deeper than 64 levels is refused; values JSON cannot hold
 * (.inf, .nan) are refused; binary becomes base64 text and timestamps ISO text.
 */
import YAML from 'yaml'
import { ServiceError, invalid } from '../../runtime/sdk'
import {
  MAX_ANSWER_CHARS,
  MAX_DEPTH,
  answerTooLarge,
  lineCol,
  toJs,
  type JNode,
  type TextError,
} from './data-format-json'

export const MAX_ALIASES = 100
/** Deepest nesting data-format-validate checks. */
export const CHECK_DEPTH = 512
/** Largest JSON text a YAML document may expand to (characters). */
export const MAX_EXPANDED = 5_000_000

/** Nesting the cheap pre-scan lets through to the parser (the exact check runs on the parsed tree). */
const PRESCAN_DEPTH = 1_000

/**
 * Refuses pathological nesting before the (recursive) yaml parser sees it: flow brackets outside quotes and
 * comments, and compact block indicators (`- - - x`) on one line. Over-counting only makes it stricter.
 */
function prescan(text: string): TextError | null {
  let depth = 0
  let prev = '\n'
  // A quote that finds no closing quote makes every later one of its kind fail too (or close earlier): searching
  // again from each of them would be quadratic (`"\"\"\"…`), so the rest is scanned as unquoted.
  const unclosed = { '"': false, "'": false }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if ((c === '"' || c === "'") && !unclosed[c]) {
      const close = c === '"' ? /(?:[^"\\]|\\[\s\S])*"/y : /(?:[^']|'')*'/y
      close.lastIndex = i + 1
      if (close.exec(text)) {
        i = close.lastIndex - 1
        prev = c
        continue
      }
      unclosed[c] = true
    }
    if (c === '#' && /\s/.test(prev)) {
      const nl = text.indexOf('\n', i)
      i = nl < 0 ? text.length : nl - 1
      continue
    }
    if ((c === '[' || c === '{') && (depth > 0 || /[\n\-:?,[{]/.test(prev))) {
      if (++depth > PRESCAN_DEPTH)
        return { message: `nesting is deeper than ${PRESCAN_DEPTH} levels`, ...lineCol(text, i), limit: true }
    } else if ((c === ']' || c === '}') && depth > 0) depth--
    if (!/[ \t]/.test(c)) prev = c
  }
  for (const m of text.matchAll(/^(?:[ \t]*[-?:](?=[ \t]|$))+/gm)) {
    if (m[0].replace(/\s/g, '').length > PRESCAN_DEPTH)
      return { message: `nesting is deeper than ${PRESCAN_DEPTH} levels`, ...lineCol(text, m.index!), limit: true }
  }
  return null
}

/**
 * Nesting depth of a parsed document's tree (a scalar is 0) and the offset of its first repeated mapping key, in
 * one iterative walk. yaml's own `uniqueKeys` check compares each key with every earlier one (quadratic: 90,000
 * keys took minutes); here each mapping keeps a Map of its scalar keys, with the same equality (scalar values ===).
 */
function astScan(root: unknown): { depth: number; duplicate?: number } {
  let depth = 0
  let duplicate: number | undefined
  const stack: Array<[unknown, number]> = [[root, 0]]
  while (stack.length) {
    const [n, d] = stack.pop()!
    if (YAML.isAlias(n) || !(YAML.isMap(n) || YAML.isSeq(n))) continue
    depth = Math.max(depth, d + 1)
    const keys = YAML.isMap(n) ? new Set<unknown>() : undefined
    for (const it of (n as YAML.YAMLMap | YAML.YAMLSeq).items as unknown[]) {
      if (!YAML.isPair(it)) {
        stack.push([it, d + 1])
        continue
      }
      stack.push([it.key, d + 1], [it.value, d + 1])
      if (!keys || !YAML.isScalar(it.key) || Number.isNaN(it.key.value)) continue
      if (!keys.has(it.key.value)) keys.add(it.key.value)
      else if (it.key.range && (duplicate === undefined || it.key.range[0] < duplicate)) duplicate = it.key.range[0]
    }
  }
  return { depth, duplicate }
}

/** Parses a stream after the pre-scan; the first syntax error, or a limit error, or the documents. */
function parseStream(text: string, maxDepth: number): { docs: YAML.Document.Parsed[] } | { error: TextError } {
  const pre = prescan(text)
  if (pre) return { error: pre }
  let docs: YAML.Document.Parsed[]
  try {
    const parsed = YAML.parseAllDocuments(text, {
      uniqueKeys: false, // checked by astScan, in linear time
      // The YAML 1.2 core schema even under `%YAML 1.1`, so `<<` is a plain key: yaml copies every merged mapping
      // before its alias cap applies (200 merges of a 40,000-key anchor took 1.2 GB before the refusal).
      schema: 'core',
      merge: false,
      prettyErrors: true,
      logLevel: 'silent',
      intAsBigInt: true,
    })
    docs = (Array.isArray(parsed) ? parsed : [parsed]) as YAML.Document.Parsed[]
  } catch (e) {
    if (e instanceof RangeError)
      return { error: { message: 'nesting is too deep', line: 1, column: 1, position: 0, limit: true } }
    throw e
  }
  for (const d of docs) {
    const scan = astScan(d.contents)
    const e = d.errors[0]
    if (scan.duplicate !== undefined && (!e || scan.duplicate < e.pos[0]))
      return { error: { message: 'Map keys must be unique', ...lineCol(text, scan.duplicate) } }
    if (e) {
      const at = e.linePos?.[0] ?? { line: 1, col: 1 }
      return {
        error: {
          message: e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, ''),
          line: at.line,
          column: at.col,
          position: e.pos[0],
        },
      }
    }
    if (scan.depth > maxDepth)
      return {
        error: { message: `nesting is deeper than ${maxDepth} levels`, ...lineCol(text, d.range[0]), limit: true },
      }
  }
  return { docs }
}

type Read = { ok: true; value: unknown; node: JNode } | { ok: false; error: TextError }

/** Key text of a non-string YAML key (`1`, `true`, `[a, b]` → JSON text). */
const keyText = (k: unknown): string =>
  typeof k === 'string'
    ? k
    : k instanceof Map
      ? JSON.stringify(Object.fromEntries(k))
      : (JSON.stringify(k) ?? String(k))

/** Converts yaml's toJS({ mapAsMap }) output to a JSON tree in document order; `bad` reports what JSON cannot hold. */
function plain(v: unknown, depth: number, bad: (msg: string, limit?: boolean) => never): JNode {
  if (v === null || v === undefined) return { k: 'lit', v: null }
  if (typeof v === 'number')
    return Number.isFinite(v) ? { k: 'num', raw: JSON.stringify(v) } : bad(`${v} cannot be represented in JSON`)
  if (typeof v === 'bigint') return { k: 'num', raw: v.toString() }
  if (typeof v === 'string') return { k: 'str', v }
  if (typeof v === 'boolean') return { k: 'lit', v }
  if (depth >= MAX_DEPTH) bad(`nesting is deeper than ${MAX_DEPTH} levels`, true)
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? bad('invalid timestamp') : { k: 'str', v: v.toISOString() }
  if (v instanceof Uint8Array) return { k: 'str', v: Buffer.from(v).toString('base64') }
  if (Array.isArray(v) || v instanceof Set) return { k: 'arr', items: [...v].map((x) => plain(x, depth + 1, bad)) }
  const entries = v instanceof Map ? [...v.entries()] : Object.entries(v as object)
  const out: Array<[string, JNode]> = []
  const at = new Map<string, number>()
  for (const [k, x] of entries) {
    const key = keyText(k)
    const node = plain(x, depth + 1, bad)
    const i = at.get(key)
    if (i === undefined) {
      at.set(key, out.length)
      out.push([key, node])
    } else out[i][1] = node
  }
  return { k: 'obj', entries: out }
}

/** About the JSON length of yaml's toJS output (Maps, arrays, scalars), each shared value measured once. */
function expandedSize(v: unknown, memo: WeakMap<object, number>, depth = 0): number {
  if (v === null || typeof v !== 'object') return typeof v === 'string' ? v.length + 2 : String(v).length
  const known = memo.get(v)
  if (known !== undefined) return known
  // aliases can nest anchors deeper than the text does; plain() refuses the same depth
  if (depth > MAX_DEPTH) throw new Fail(`nesting is deeper than ${MAX_DEPTH} levels`, true)
  memo.set(v, 0) // a cycle (an alias inside its own anchor) is refused by yaml itself
  let n = 2
  const d = depth + 1
  if (v instanceof Map) for (const [k, x] of v) n += expandedSize(k, memo, d) + expandedSize(x, memo, d) + 2
  else if (Array.isArray(v) || v instanceof Set) for (const x of v) n += expandedSize(x, memo, d) + 1
  else if (!(v instanceof Date) && !(v instanceof Uint8Array))
    for (const x of Object.values(v)) n += expandedSize(x, memo, d) + 4
  memo.set(v, n)
  return n
}

/** Reads one YAML document as plain JSON values, or the first error with its 1-based line and column. */
export function readYaml(text: string): Read {
  const parsed = parseStream(text, MAX_DEPTH)
  if ('error' in parsed) return { ok: false, error: parsed.error }
  const { docs } = parsed
  if (docs.length > 1) {
    const at = docs[1].range[0]
    const line = text.slice(0, at).split('\n').length
    return {
      ok: false,
      error: { message: `the stream holds ${docs.length} documents; send one`, line, column: 1, position: at },
    }
  }
  const fail = (message: string, limit = false): never => {
    throw new Fail(message, limit)
  }
  try {
    const js = docs.length ? docs[0].toJS({ maxAliasCount: MAX_ALIASES, mapAsMap: true }) : null
    // Aliases share one JS value; measure the expansion on the shared values before copying it into a tree.
    if (expandedSize(js, new WeakMap()) > MAX_EXPANDED)
      fail(`the document expands to more than ${MAX_EXPANDED} characters of JSON`, true)
    const node = docs.length ? plain(js, 0, fail) : ({ k: 'lit', v: null } as JNode)
    const value = toJs(node, 'input')
    if ((JSON.stringify(value)?.length ?? 0) > MAX_EXPANDED)
      fail(`the document expands to more than ${MAX_EXPANDED} characters of JSON`, true)
    return { ok: true, value, node }
  } catch (e) {
    if (e instanceof Fail)
      return { ok: false, error: { message: e.message, line: 1, column: 1, position: 0, limit: e.limit } }
    if (e instanceof RangeError)
      return { ok: false, error: { message: 'nesting is too deep', line: 1, column: 1, position: 0, limit: true } }
    if (e instanceof ReferenceError || (e instanceof Error && /alias/i.test(e.message)))
      return {
        ok: false,
        error: {
          message: /excessive/i.test(e.message) ? `${e.message} (at most ${MAX_ALIASES} aliases)` : e.message,
          line: 1,
          column: 1,
          position: 0,
          limit: /excessive/i.test(e.message),
        },
      }
    throw e
  }
}

class Fail extends Error {
  constructor(
    message: string,
    readonly limit: boolean,
  ) {
    super(message)
  }
}

/** Reads a YAML document or throws a 422 naming `field` with the line and column of the first error. */
export function parseYaml(text: string, field: string): { value: unknown; node: JNode } {
  const r = readYaml(text)
  if (!r.ok) {
    const msg = `line ${r.error.line}, column ${r.error.column}: ${r.error.message}`
    throw new ServiceError(422, 'INVALID_INPUT', `${field}: invalid YAML: ${msg}`, {
      details: [{ path: `/${field}`, message: msg, line: r.error.line, column: r.error.column }],
    })
  }
  return { value: r.value, node: r.node }
}

/** Strings a YAML 1.1 reader (PyYAML, older tools) would take for booleans or null: always quoted on output. */
const YAML11_WORDS =
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|true|True|TRUE|false|False|FALSE|null|Null|NULL|~)$/

/** The tree as JS values with objects as Maps (so member order survives, integer-like keys included). */
function asMaps(n: JNode): unknown {
  switch (n.k) {
    case 'lit':
      return n.v
    case 'str':
      return YAML11_WORDS.test(n.v) ? Object.assign(new YAML.Scalar(n.v), { type: YAML.Scalar.QUOTE_DOUBLE }) : n.v
    case 'num':
      return /^-?\d+$/.test(n.raw) ? BigInt(n.raw) : Number(n.raw)
    case 'arr':
      return n.items.map(asMaps)
    case 'obj':
      return new Map(n.entries.map(([k, v]) => [k, asMaps(v)]))
  }
}

/**
 * An upper bound of the block-style YAML of a tree at `depth`: each entry or item on its own line indented
 * `depth × indent`, and each line of a multi-line string indented one level deeper (a block scalar).
 */
function yamlSize(n: JNode, indent: number, depth: number): number {
  const pad = depth * indent + 4
  switch (n.k) {
    case 'str': {
      let lines = 0
      for (let i = n.v.indexOf('\n'); i !== -1; i = n.v.indexOf('\n', i + 1)) lines++
      return JSON.stringify(n.v).length + lines * ((depth + 1) * indent + 2)
    }
    case 'num':
      return n.raw.length
    case 'lit':
      return 5
    case 'arr':
      return n.items.reduce((s, v) => s + pad + yamlSize(v, indent, depth + 1), 2)
    case 'obj':
      return n.entries.reduce((s, [k, v]) => s + pad + JSON.stringify(k).length + yamlSize(v, indent, depth + 1), 2)
  }
}

/** Block-style YAML 1.2 text (no line folding; strings quoted only when needed; member order kept). */
export function writeYaml(node: JNode, indent = 2, sortKeys = false): string {
  if (yamlSize(node, indent, 0) > MAX_ANSWER_CHARS)
    throw answerTooLarge(
      'input',
      'deep nesting repeats the indentation on every line: send less data or a smaller indent',
    )
  try {
    return YAML.stringify(asMaps(node), {
      indent,
      sortMapEntries: sortKeys,
      lineWidth: 0,
      aliasDuplicateObjects: false,
    })
  } catch (e) {
    throw invalid('input', `cannot be written as YAML: ${(e as Error).message}`)
  }
}

/**
 * Checks a YAML stream (several documents allowed) without converting it to JSON: syntax errors and unresolved
 * aliases make it invalid; aliases expanded past the cap are a limit. The normalized copy is yaml's own
 * re-serialization (comments kept, aliases not expanded).
 */
export function checkYaml(
  text: string,
): { ok: true; normalized: string; documents: number } | { ok: false; error: TextError } {
  const parsed = parseStream(text, CHECK_DEPTH)
  if ('error' in parsed) return { ok: false, error: parsed.error }
  const { docs } = parsed
  try {
    for (const d of docs) d.toJS({ maxAliasCount: MAX_ALIASES })
    const normalized =
      docs.length <= 1
        ? (docs[0]?.toString({ lineWidth: 0, flowCollectionPadding: false }) ?? '')
        : docs
            .map((d) => d.toString({ lineWidth: 0, flowCollectionPadding: false }))
            .map((s) => (/^(?:%|---)/.test(s) ? s : `---\n${s}`))
            .join('')
    return { ok: true, normalized, documents: docs.length }
  } catch (e) {
    if (e instanceof RangeError)
      return { ok: false, error: { message: 'nesting is too deep', line: 1, column: 1, position: 0, limit: true } }
    const msg = (e as Error).message
    return { ok: false, error: { message: msg, line: 1, column: 1, position: 0, limit: /excessive/i.test(msg) } }
  }
}
