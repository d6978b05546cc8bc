/**
 * CSV/TSV helpers for the data-format services: RFC 4180 reading with papaparse (quoted fields, doubled quotes,
 * line breaks inside quotes, CRLF/LF/CR), strict about quotes (an unclosed quoted field, or text after a closing
 * quote, is an error with its line and column), and writing with Python's csv.writer rules (QUOTE_MINIMAL:
 * quote a field only when it holds the delimiter, a quote or a line break; a row made of one empty field is
 * written `""`).
 */
import Papa from 'papaparse'
import { ServiceError, invalid } from '../../runtime/sdk'
import { lineCol, setOwn, type TextError } from './data-format-json'

export const DELIMITERS = [',', '\t', ';', '|'] as const
export type Delimiter = (typeof DELIMITERS)[number]

/** Most rows and columns accepted in one CSV. */
export const MAX_ROWS = 100_000
export const MAX_COLUMNS = 1_000

/** Input schema of the `delimiter` option. */
export { delimiterSchema } from './fields'

export interface CsvTable {
  rows: string[][]
  /** 1-based line where each row starts. */
  lines: number[]
  delimiter: Delimiter
  /** Line break found in the input (`\r\n`, `\n` or `\r`). */
  newline: string
}

export type CsvRead = { ok: true; table: CsvTable } | { ok: false; error: TextError }

/** Reads CSV text; empty lines are skipped; a leading BOM is ignored. */
export function readCsv(text: string, delimiter: Delimiter | 'auto' = 'auto'): CsvRead {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const rows: string[][] = []
  const starts: number[] = []
  let prev = 0
  let error: { at: number; message: string } | undefined
  let tooMany = false
  // Guess the delimiter on a preview that skips blank lines (a trailing newline would defeat the guess).
  const found =
    delimiter === 'auto'
      ? Papa.parse<string[]>(src, {
          delimiter: '',
          delimitersToGuess: [...DELIMITERS],
          skipEmptyLines: true,
          preview: 10,
        }).meta.delimiter
      : delimiter
  const used: Delimiter = DELIMITERS.includes(found as Delimiter) ? (found as Delimiter) : ','
  Papa.parse<string[]>(src, {
    delimiter: used,
    skipEmptyLines: false,
    header: false,
    dynamicTyping: false,
    step: (r, parser) => {
      let s = prev
      while (s < src.length && (src[s] === '\n' || src[s] === '\r')) s++
      prev = r.meta.cursor
      for (const e of r.errors) {
        if (e.type !== 'Quotes' || error) continue
        const at = Math.max(0, (e.index ?? s) - 1)
        error = {
          at,
          message:
            e.code === 'MissingQuotes'
              ? 'quoted field is not closed'
              : 'a closing quote must be followed by the delimiter or a line break',
        }
      }
      if (error) return parser.abort()
      // Only a blank line is skipped; a line `""` is a record with one empty field.
      if (r.data.length === 1 && r.data[0] === '' && s >= r.meta.cursor) return
      if (rows.length >= MAX_ROWS) {
        tooMany = true
        return parser.abort()
      }
      rows.push(r.data)
      starts.push(s)
    },
  })
  if (tooMany) throw invalid('csv', `more than ${MAX_ROWS} rows`)
  if (error) return { ok: false, error: { message: error.message, ...lineCol(src, error.at) } }
  const wide = rows.findIndex((r) => r.length > MAX_COLUMNS)
  if (wide >= 0) throw invalid('csv', `row ${wide + 1} has more than ${MAX_COLUMNS} fields`)
  const lines = linesOf(src, starts)
  const newline = /\r\n/.test(src) ? '\r\n' : /\r/.test(src) && !/\n/.test(src) ? '\r' : '\n'
  return { ok: true, table: { rows, lines, delimiter: used, newline } }
}

function linesOf(src: string, offsets: number[]): number[] {
  const out: number[] = []
  let line = 1
  let at = 0
  for (const o of offsets) {
    for (let i = src.indexOf('\n', at); i !== -1 && i < o; i = src.indexOf('\n', i + 1)) line++
    at = Math.max(at, o)
    out.push(line)
  }
  return out
}

/** Reads CSV text or throws a 422 naming `field` with the line and column of the first quoting error. */
export function parseCsv(text: string, field: string, delimiter: Delimiter | 'auto' = 'auto'): CsvTable {
  const r = readCsv(text, delimiter)
  if (!r.ok) {
    const msg = `line ${r.error.line}, column ${r.error.column}: ${r.error.message}`
    throw new ServiceError(422, 'INVALID_INPUT', `${field}: invalid CSV: ${msg}`, {
      details: [{ path: `/${field}`, message: msg, line: r.error.line, column: r.error.column }],
    })
  }
  return r.table
}

/**
 * Column names from a header row: an empty name becomes `column_N` (N = 1-based position) and a repeated name
 * gets `_2`, `_3`, ... so that no value is lost.
 */
export function headerNames(header: string[]): string[] {
  const used = new Set<string>()
  return header.map((h, i) => {
    let name = h === '' ? `column_${i + 1}` : h
    if (used.has(name)) {
      let n = 2
      while (used.has(`${name}_${n}`)) n++
      name = `${name}_${n}`
    }
    used.add(name)
    return name
  })
}

const NUMERIC = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/

/**
 * Typed value of a CSV cell: `true`/`false` (any case) → boolean, a JSON-style number (no leading zeros, so
 * `007` and ZIP codes stay text; integers beyond 2^53 stay text) → number, empty → null, anything else → text.
 */
export function typedCell(s: string): string | number | boolean | null {
  if (s === '') return null
  const low = s.toLowerCase()
  if (low === 'true') return true
  if (low === 'false') return false
  if (NUMERIC.test(s)) {
    const n = Number(s)
    if (!Number.isFinite(n)) return s
    if (/^-?\d+$/.test(s) && !Number.isSafeInteger(n)) return s
    return n
  }
  return s
}

/** Row objects from a table with a header row: missing fields are null, surplus fields go to `_extra`. */
export function recordsOf(
  table: CsvTable,
  typed: boolean,
): { columns: string[]; records: Record<string, unknown>[]; ragged: number[] } {
  const [head = [], ...body] = table.rows
  const columns = headerNames(head)
  const ragged: number[] = []
  const records = body.map((row, i) => {
    if (row.length !== columns.length) ragged.push(i + 1)
    const o: Record<string, unknown> = {}
    columns.forEach((c, j) => setOwn(o, c, j < row.length ? (typed ? typedCell(row[j]) : row[j]) : null))
    if (row.length > columns.length)
      setOwn(
        o,
        '_extra',
        row.slice(columns.length).map((v) => (typed ? typedCell(v) : v)),
      )
    return o
  })
  return { columns, records, ragged }
}

/** Text of a value in a CSV cell: null → empty, objects and arrays → compact JSON, others → their JSON text. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return JSON.stringify(v)
}

const FORMULA = /^[=+\-@\t\r]/

/** One CSV field, quoted only when needed (Python csv QUOTE_MINIMAL). */
export function csvField(s: string, delimiter: string, guardFormulas = false): string {
  const v = guardFormulas && FORMULA.test(s) ? `'${s}` : s
  return v.includes(delimiter) || v.includes('"') || v.includes('\n') || v.includes('\r')
    ? `"${v.replace(/"/g, '""')}"`
    : v
}

/** CSV text, every row ended by `newline` (as Python's csv.writer does). */
export function writeCsv(rows: string[][], delimiter: string, newline = '\r\n', guardFormulas = false): string {
  return rows
    .map(
      (r) =>
        (r.length === 1 && r[0] === '' ? '""' : r.map((f) => csvField(f, delimiter, guardFormulas)).join(delimiter)) +
        newline,
    )
    .join('')
}

/** Union of the keys of several objects, in first-seen order. */
export function keyUnion(rows: Record<string, unknown>[]): string[] {
  const seen = new Set<string>()
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k)
  return [...seen]
}
