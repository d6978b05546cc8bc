/** Readers and writers of record tables for data-format-convert. A table keeps its column order explicitly. */
import { ServiceError, invalid } from '../../runtime/sdk'
import { MAX_COLUMNS, assertCells, cellText, parseCsv, recordsOf, writeCsv } from '../_lib/data-format-csv'
import {
  MAX_ANSWER_CHARS,
  answerTooLarge,
  describeError,
  fromJs,
  parseJsonTree,
  readJson,
  toJs,
  writeJson,
  type JNode,
} from '../_lib/data-format-json'

export type Format = 'csv' | 'tsv' | 'json' | 'ndjson'
export interface Table {
  columns: string[]
  rows: Array<Map<string, unknown>>
}

export const MAX_RECORDS = 100_000

function fromObjects(nodes: JNode[], what: (i: number) => string): Table {
  const columns = new Set<string>()
  const rows = nodes.map((n, i) => {
    if (n.k !== 'obj') throw invalid('input', `${what(i)} is not a JSON object`)
    const m = new Map<string, unknown>()
    for (const [k, v] of n.entries) {
      columns.add(k)
      m.set(k, toJs(v, 'input'))
    }
    return m
  })
  // Every output row has a cell for every column: distinct keys spread over many objects would be quadratic.
  if (columns.size > MAX_COLUMNS) throw invalid('input', `the records have more than ${MAX_COLUMNS} distinct keys`)
  assertCells(rows.length, columns.size, 'input')
  return { columns: [...columns], rows }
}

export function detect(text: string): Format {
  const s = text.trimStart()
  if (s.startsWith('[')) return 'json'
  if (s.startsWith('{')) return 'ndjson'
  const first = s.split(/\r?\n/, 1)[0]
  return first.includes('\t') && !first.includes(',') ? 'tsv' : 'csv'
}

export function read(text: string, format: Format, typed: boolean): Table {
  if (format === 'csv' || format === 'tsv') {
    const table = parseCsv(text, 'input', format === 'tsv' ? '\t' : ',')
    if (table.rows.length === 0) throw invalid('input', 'has no header row')
    const { columns, records } = recordsOf(table, typed, 'input')
    if (records.some((r) => Object.hasOwn(r, '_extra'))) columns.push('_extra')
    return {
      columns,
      rows: records.map((r) => new Map(columns.filter((c) => Object.hasOwn(r, c)).map((c) => [c, r[c]]))),
    }
  }
  if (format === 'json') {
    const { node } = parseJsonTree(text, 'input')
    if (node.k !== 'arr') throw invalid('input', 'JSON input must be an array of objects')
    if (node.items.length > MAX_RECORDS) throw invalid('input', `more than ${MAX_RECORDS} records`)
    return fromObjects(node.items, (i) => `item ${i}`)
  }
  const nodes: JNode[] = []
  const lines = text.split('\n')
  lines.forEach((line, i) => {
    if (line.trim() === '') return
    const r = readJson(line)
    if (!r.ok) {
      const msg = `line ${i + 1}: ${describeError({ ...r.error, line: i + 1 })}`
      throw new ServiceError(422, 'INVALID_INPUT', `input: invalid NDJSON: ${msg}`, {
        details: [{ path: '/input', message: msg, line: i + 1, column: r.error.column }],
      })
    }
    nodes.push(r.node)
  })
  if (nodes.length > MAX_RECORDS) throw invalid('input', `more than ${MAX_RECORDS} records`)
  const lineOf = lines
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => l.trim() !== '')
    .map(([, n]) => n)
  return fromObjects(nodes, (i) => `line ${lineOf[i]}`)
}

const rowNode = (t: Table, r: Map<string, unknown>): JNode => ({
  k: 'obj',
  entries: t.columns.filter((c) => r.has(c)).map((c) => [c, fromJs(r.get(c))]),
})

export function write(t: Table, format: Format, opts: { indent: number; newline: string }): string {
  if (format === 'json')
    return writeJson({ k: 'arr', items: t.rows.map((r) => rowNode(t, r)) }, opts.indent || null, false)
  if (format === 'ndjson') {
    let left = MAX_ANSWER_CHARS
    return t.rows
      .map((r) => {
        const line = writeJson(rowNode(t, r), null, false, 'input', left) + '\n'
        left -= line.length
        if (left < 0) throw answerTooLarge('input', 'send fewer records')
        return line
      })
      .join('')
  }
  const body = t.rows.map((r) => t.columns.map((c) => cellText(r.get(c))))
  return writeCsv([t.columns, ...body], format === 'tsv' ? '\t' : ',', opts.newline)
}
