import { handlerFor, invalid } from '../../runtime/sdk'
import { headerNames, parseCsv } from '../_lib/data-format-csv'
import { charLength, counts, inferType, numericStats } from './lib'
import manifest from './manifest'

export default handlerFor(
  manifest,
  ({ csv, delimiter = 'auto', header = true, null_values = [], samples = 5, top = 5 }) => {
    const table = parseCsv(csv, 'csv', delimiter)
    if (header && table.rows.length === 0) throw invalid('csv', 'has no header row')
    const body = header ? table.rows.slice(1) : table.rows
    const width = header ? table.rows[0].length : body.reduce((m, r) => Math.max(m, r.length), 0)
    const names = header ? headerNames(table.rows[0]) : Array.from({ length: width }, (_, j) => `column_${j + 1}`)
    const nulls = new Set(null_values)
    // One pass over the cells that exist: a wide header over many short rows must not cost rows × columns.
    const present = names.map((): string[] => [])
    for (const r of body)
      for (let j = 0; j < Math.min(r.length, width); j++) {
        const v = r[j]
        if (v.trim() !== '' && !nulls.has(v)) present[j].push(v)
      }
    const columns = names.map((name, j) => {
      const values = present[j]
      const nullCount = body.length - values.length
      const type = inferType(values)
      const freq = counts(values)
      const lengths = values.map(charLength)
      const numeric = type === 'integer' || type === 'number' ? numericStats(values) : null
      const sortedDates = type === 'date' ? [...freq.keys()].sort() : null
      return {
        name,
        index: j + 1,
        type,
        count: values.length,
        nulls: nullCount,
        distinct: freq.size,
        unique: freq.size === values.length,
        min: numeric?.min ?? sortedDates?.[0] ?? null,
        max: numeric?.max ?? sortedDates?.[sortedDates.length - 1] ?? null,
        sum: numeric?.sum ?? null,
        mean: numeric?.mean ?? null,
        median: numeric?.median ?? null,
        stddev: numeric?.stddev ?? null,
        min_length: lengths.length ? lengths.reduce((a, b) => Math.min(a, b)) : null,
        max_length: lengths.length ? lengths.reduce((a, b) => Math.max(a, b)) : null,
        top: [...freq.entries()]
          .map(([value, count], i) => ({ value, count, i }))
          .sort((a, b) => b.count - a.count || a.i - b.i)
          .slice(0, top)
          .map(({ value, count }) => ({ value, count })),
        samples: [...freq.keys()].slice(0, samples),
      }
    })
    return { row_count: body.length, column_count: columns.length, delimiter: table.delimiter, columns }
  },
)
