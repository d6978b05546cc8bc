import { handlerFor, invalid } from '../../runtime/sdk'
import { MAX_COLUMNS, assertCells, cellText, keyUnion, writeCsv } from '../_lib/data-format-csv'
import { assertDepth } from '../_lib/data-format-json'
import manifest from './manifest'

export default handlerFor(
  manifest,
  ({ rows, columns, delimiter = ',', header = true, newline = 'crlf', escape_formulas = false }) => {
    assertDepth(rows, 'rows')
    const cols = columns ?? keyUnion(rows)
    if (cols.length > MAX_COLUMNS) throw invalid('rows', `the rows have more than ${MAX_COLUMNS} distinct keys`)
    if (new Set(cols).size !== cols.length) throw invalid('columns', 'names a column twice')
    assertCells(rows.length, cols.length, 'rows')
    const body = rows.map((r) => cols.map((c) => cellText(Object.hasOwn(r, c) ? r[c] : null)))
    const csv = writeCsv(
      header ? [cols, ...body] : body,
      delimiter,
      newline === 'lf' ? '\n' : '\r\n',
      escape_formulas,
      'rows',
    )
    return { csv, columns: cols, row_count: body.length, column_count: cols.length }
  },
)
