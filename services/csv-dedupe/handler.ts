import { handlerFor, invalid } from '../../runtime/sdk'
import { headerNames, parseCsv, writeCsv } from '../_lib/data-format-csv'
import manifest from './manifest'

const MAX_REPORTED = 1_000

export default handlerFor(
  manifest,
  ({ csv, keys, header = true, delimiter = 'auto', keep = 'first', ignore_case = false, trim = false }) => {
    const table = parseCsv(csv, 'csv', delimiter)
    if (header && table.rows.length === 0) throw invalid('csv', 'has no header row')
    const head = header ? table.rows[0] : []
    const names = headerNames(head)
    const body = header ? table.rows.slice(1) : table.rows
    const width = header ? head.length : body.reduce((m, r) => Math.max(m, r.length), 0)
    const idx = (keys ?? []).map((k, i) => {
      if (typeof k === 'number') {
        if (k > width) throw invalid(`keys/${i}`, `column ${k} does not exist (the CSV has ${width} columns)`)
        return k - 1
      }
      if (!header) throw invalid(`keys/${i}`, 'without a header, keys must be 1-based column numbers')
      const at = head.indexOf(k) >= 0 ? head.indexOf(k) : names.indexOf(k)
      if (at < 0)
        throw invalid(`keys/${i}`, `no column named ${JSON.stringify(k)} (columns: ${head.slice(0, 20).join(', ')})`)
      return at
    })
    const whole = idx.length === 0
    const keyOf = (r: string[]) => (whole ? r : idx.map((j) => r[j] ?? ''))
    const norm = (v: string) => {
      let s = trim ? v.trim() : v
      if (ignore_case) s = s.toLowerCase()
      return s
    }
    const groups = new Map<string, number[]>()
    body.forEach((r, i) => {
      const k = JSON.stringify(keyOf(r).map(norm))
      const g = groups.get(k)
      if (g) g.push(i)
      else groups.set(k, [i])
    })
    const keptOf = new Map<number, number>()
    for (const g of groups.values()) {
      const kept = keep === 'first' ? g[0] : g[g.length - 1]
      for (const i of g) keptOf.set(i, kept)
    }
    const offset = header ? 1 : 0
    const removedIdx = body.map((_, i) => i).filter((i) => keptOf.get(i) !== i)
    const kept = body.filter((_, i) => keptOf.get(i) === i)
    return {
      csv: writeCsv(header ? [head, ...kept] : kept, table.delimiter, table.newline, false, 'csv'),
      keys: whole
        ? header
          ? names
          : Array.from({ length: width }, (_, j) => String(j + 1))
        : idx.map((j, i) => (header ? names[j] : String(j + 1)) ?? String(keys![i])),
      rows_in: body.length,
      rows_out: kept.length,
      removed_count: removedIdx.length,
      removed: removedIdx.slice(0, MAX_REPORTED).map((i) => ({
        row: i + 1,
        line: table.lines[i + offset],
        duplicate_of: keptOf.get(i)! + 1,
        key: keyOf(body[i]),
      })),
      delimiter: table.delimiter,
    }
  },
)
