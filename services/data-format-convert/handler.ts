import { handlerFor } from '../../runtime/sdk'
import { detect, read, write, type Format } from './lib'
import manifest from './manifest'

const norm = (f: string): Format => (f === 'jsonl' ? 'ndjson' : (f as Format))

export default handlerFor(
  manifest,
  ({ input, from = 'auto', to, dynamic_typing = false, indent = 2, newline = 'crlf' }) => {
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
    const source = from === 'auto' ? detect(text) : norm(from)
    const target = to ? norm(to) : source === 'csv' || source === 'tsv' ? 'json' : 'csv'
    const table = read(text, source, dynamic_typing)
    const output = write(table, target, { indent, newline: newline === 'lf' ? '\n' : '\r\n' })
    return { output, from: source, to: target, records: table.rows.length, columns: table.columns }
  },
)
