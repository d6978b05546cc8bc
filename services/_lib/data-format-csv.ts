/**
 * CSV/TSV helpers for the data-format services: RFC 4180 reading with papaparse (quoted fields, doubled quotes,
 * line breaks inside quotes, CRLF/LF/CR), strict about quotes (an unclosed quoted field, or text after a closing
 * quote, is an error with its line and column), and writing with Python's csv.writer rules (QUOTE_MINIMAL:
 * quote a field only when it holds the delimiter, a quote or a line break; a row made of one empty field is
 * written `""`).
 */
import Papa from 'papaparse'
import { ServiceError, invalid } from '../../runtime/sdk'
import { answerTooLarge, lineCol, MAX_ANSWER_CHARS, setOwn, type TextError } from './data-format-json'

export const DELIMITERS = [',', '\t', ';', '|'] as const
export type Delimiter = (typeof DELIMITERS)[number]

/** Most rows and columns accepted in one CSV. */
export const MAX_ROWS = 100_000
export const MAX_COLUMNS = 1_000
/** Most cells (rows × columns, short rows padded) one answer may hold. */
export const MAX_CELLS = 2_000_000

/** 422 when a table of `rows` × `columns` would pass MAX_CELLS (short rows are padded to the header's width). */
export function assertCells(rows: number, columns: number, field: string): void {
  if (rows * columns > MAX_CELLS)
    throw new ServiceError(
      422,
      'INPUT_TOO_LARGE',
      `${field}: ${rows} rows × ${columns} columns is more than ${MAX_CELLS} cells; send fewer rows or columns`,
      { details: [{ path: `/${field}`, message: `more than ${MAX_CELLS} cells (rows × columns)` }] },
    )
}

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
      // Stop at this row's end: scanning on through the blank lines that follow made a run of them quadratic.
      while (s < r.meta.cursor && (src[s] === '\n' || src[s] === '\r')) s++
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
  field = 'csv',
): { columns: string[]; records: Record<string, unknown>[]; ragged: number[] } {
  const [head = [], ...body] = table.rows
  const columns = headerNames(head)
  // Every record repeats every column name (short rows are padded with null): refuse before building them.
  assertCells(body.length, columns.length, field)
  const perRecord = columns.reduce((n, c) => n + JSON.stringify(c).length + 6, 2)
  if (body.length * perRecord > MAX_ANSWER_CHARS)
    throw answerTooLarge(field, 'every record repeats the column names: send fewer rows, or read the rows as arrays')
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

/** CSV text, every row ended by `newline` (as Python's csv.writer does); 422 past MAX_ANSWER_CHARS. */
export function writeCsv(
  rows: string[][],
  delimiter: string,
  newline = '\r\n',
  guardFormulas = false,
  field = 'input',
): string {
  let size = 0
  return rows
    .map((r) => {
      const line =
        (r.length === 1 && r[0] === '' ? '""' : r.map((f) => csvField(f, delimiter, guardFormulas)).join(delimiter)) +
        newline
      if ((size += line.length) > MAX_ANSWER_CHARS) throw answerTooLarge(field, 'send fewer rows or columns')
      return line
    })
    .join('')
}

/** Union of the keys of several objects, in first-seen order. */
export function keyUnion(rows: Record<string, unknown>[]): string[] {
  const seen = new Set<string>()
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k)
  return [...seen]
}
