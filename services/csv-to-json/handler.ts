import { handlerFor, invalid } from '../../runtime/sdk'
import { parseCsv, recordsOf, typedCell } from '../_lib/data-format-csv'
import manifest from './manifest'

export default handlerFor(manifest, ({ csv, delimiter = 'auto', header = true, dynamic_typing = false }) => {
  const table = parseCsv(csv, 'csv', delimiter)
  if (!header) {
    const rows = table.rows.map((r) => (dynamic_typing ? r.map(typedCell) : r))
    return {
      rows,
      columns: null,
      row_count: rows.length,
      column_count: rows.reduce((m, r) => Math.max(m, r.length), 0),
      delimiter: table.delimiter,
      warnings: [],
    }
  }
  if (table.rows.length === 0) throw invalid('csv', 'has no header row')
  const { columns, records, ragged } = recordsOf(table, dynamic_typing)
  const warnings = ragged
    .slice(0, 20)
    .map(
      (i) => `row ${i} (line ${table.lines[i]}) has ${table.rows[i].length} fields; the header has ${columns.length}`,
    )
  if (ragged.length > 20) warnings.push(`${ragged.length - 20} more rows have a different field count`)
  return {
    rows: records as never,
    columns,
    row_count: records.length,
    column_count: columns.length,
    delimiter: table.delimiter,
    warnings,
  }
})
