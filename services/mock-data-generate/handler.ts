import { handlerFor, invalid } from '../../runtime/sdk'
import { cellText, writeCsv } from '../_lib/data-format-csv'
import { MAX_ANSWER_CHARS, answerTooLarge, jsonLength, setOwn } from '../_lib/data-format-json'
import { checkSpec, generate, mulberry32, type FieldSpec } from './lib'
import manifest from './manifest'

export default handlerFor(manifest, ({ fields, count = 10, seed = 1, format = 'json' }) => {
  const specs = Object.entries(fields).map(
    ([name, f]) => [name, (typeof f === 'string' ? { type: f } : f) as FieldSpec] as const,
  )
  if (specs.length === 0 || specs.length > 50) throw invalid('fields', 'needs 1-50 fields')
  for (const [name, s] of specs) {
    if (name.length === 0 || name.length > 64)
      throw invalid('fields', `field names must be 1-64 characters (${JSON.stringify(name.slice(0, 80))})`)
    checkSpec(name, s)
  }
  const r = mulberry32(seed)
  const records = Array.from({ length: count }, (_, i) => {
    const o: Record<string, string | number | boolean | null> = {}
    for (const [name, s] of specs) setOwn(o, name, generate(r, s, i + 1) as string | number | boolean | null)
    return o
  })
  // 1,000 records of 50 paragraphs would be a 12 MB answer.
  if (jsonLength(records) > MAX_ANSWER_CHARS) throw answerTooLarge('count', 'ask for fewer records or fields')
  const names = specs.map(([n]) => n)
  const base = { format, count, seed, fields: names }
  if (format === 'json') return { ...base, records }
  if (format === 'ndjson') return { ...base, content: records.map((o) => JSON.stringify(o)).join('\n') + '\n' }
  return {
    ...base,
    content: writeCsv([names, ...records.map((o) => names.map((n) => cellText(o[n])))], ',', '\r\n', false, 'count'),
  }
})
