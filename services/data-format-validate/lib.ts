/** Per-format checks for data-format-validate. Each returns the verdict, the first error and a normalized copy. */
import { invalid } from '../../runtime/sdk'
import { readCsv, writeCsv, type Delimiter } from '../_lib/data-format-csv'
import { nodeType, readJson, treeDepth, writeJson, type TextError } from '../_lib/data-format-json'
import { normalizeXml, xmlError, xmlShape } from '../_lib/data-format-xml'
import { checkYaml } from '../_lib/data-format-yaml'

/** Deepest JSON nesting checked (deeper documents are refused, not judged). */
export const JSON_DEPTH = 512

export interface Stats {
  top_level_type?: string
  depth?: number
  rows?: number
  columns?: number
  root?: string
  documents?: number
}
export type Verdict = { valid: true; normalized: string; stats: Stats } | { valid: false; error: TextError }

/** A limit of this service is a 422, never a verdict on the document. */
function judge(e: TextError): Verdict {
  if (e.limit) throw invalid('input', `cannot be checked: ${e.message} (line ${e.line}, column ${e.column})`)
  return { valid: false, error: e }
}

export function checkJson(text: string): Verdict {
  const r = readJson(text, JSON_DEPTH)
  if (!r.ok) return judge(r.error)
  return {
    valid: true,
    normalized: writeJson(r.node, 2, false),
    stats: { top_level_type: nodeType(r.node), depth: treeDepth(r.node) },
  }
}

export function checkCsv(text: string, delimiter: Delimiter | 'auto'): Verdict {
  const r = readCsv(text, delimiter)
  if (!r.ok) return judge(r.error)
  const { rows, lines } = r.table
  const width = rows[0]?.length ?? 0
  const bad = rows.findIndex((row) => row.length !== width)
  if (bad > 0)
    return {
      valid: false,
      error: {
        message: `record ${bad + 1} has ${rows[bad].length} fields; the first record has ${width} (RFC 4180 §2.4)`,
        line: lines[bad],
        column: 1,
        position: -1,
      },
    }
  return {
    valid: true,
    normalized: writeCsv(rows, r.table.delimiter, '\r\n'),
    stats: { rows: rows.length, columns: width },
  }
}

export function checkXml(text: string): Verdict {
  const e = xmlError(text)
  if (e) return judge(e)
  return { valid: true, normalized: normalizeXml(text), stats: { root: xmlShape(text, 0).root } }
}

export function checkYamlText(text: string): Verdict {
  const r = checkYaml(text)
  if (!r.ok) return judge(r.error)
  return { valid: true, normalized: r.normalized, stats: { documents: r.documents } }
}
