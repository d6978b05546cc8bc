/**
 * XML helpers for the data-format services, on fast-xml-parser. Safety: entity declarations (`<!ENTITY`) are
 * refused and no entity is ever expanded; only the five predefined entities (&amp; &lt; &gt; &quot; &apos;) and
 * numeric character references are decoded; nesting is capped at 64 elements. Convention for JSON: attributes
 * are keys prefixed `@`, text beside attributes or children is `#text`, repeated child elements become an
 * array, an empty element is "" and values stay strings unless `parse_values` is set.
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser'
import { ServiceError, invalid } from '../../runtime/sdk'
import { MAX_ANSWER_CHARS, MAX_DEPTH, answerTooLarge, lineCol, type TextError } from './data-format-json'

const ENTITY = /&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(amp|lt|gt|quot|apos));/g
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Decodes the predefined XML entities and character references; anything else is left as written. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(ENTITY, (m, dec, hex, name) => {
    if (name) return NAMED[name]
    const cp = dec ? Number(dec) : parseInt(hex, 16)
    return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : m
  })
}

/** Tags of a document, skipping comments, CDATA, declarations and processing instructions: `m[1]` is `/` on an end tag, `m[2]` on an empty-element tag. */
const TAGS = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[!?][^>]*>|<(\/?)([^\s/>]*)[^>]*?(\/?)>/g

/**
 * Name of the root element of a well-formed document and the indentation a pretty-printed copy adds (`indent`
 * spaces per level on each start and end tag), measured without building it.
 */
export function xmlShape(text: string, indent: number): { root: string; indentChars: number } {
  let depth = 0
  let root = ''
  let indentChars = 0
  for (const m of text.matchAll(TAGS)) {
    if (m[0].startsWith('<!') || m[0].startsWith('<?')) continue
    if (!root && !m[1]) root = m[2]
    if (m[1]) depth--
    indentChars += depth * indent + 1 // each start, end or empty-element tag on its own line
    if (!m[1] && !m[3]) depth++
  }
  return { root, indentChars }
}

/** First well-formedness problem of an XML document, or null. */
export function xmlError(text: string): TextError | null {
  const decl = /<!ENTITY/i.exec(text)
  if (decl)
    return {
      message: 'entity declarations are not accepted (entities are never expanded)',
      ...lineCol(text, decl.index),
      limit: true,
    }
  const r = XMLValidator.validate(text, { allowBooleanAttributes: false })
  if (r === true) {
    let depth = 0
    let deepest = 0
    let roots = 0
    // Tag nesting, skipping comments, CDATA, declarations and processing instructions.
    for (const m of text.matchAll(TAGS)) {
      if (m[0].startsWith('<!') || m[0].startsWith('<?')) continue
      if (depth === 0 && !m[1] && ++roots > 1)
        return { message: 'a document has one root element; found another one', ...lineCol(text, m.index!) }
      if (m[1]) depth--
      else if (!m[3]) {
        depth++
        if (depth > deepest) deepest = depth
        if (depth > MAX_DEPTH)
          return {
            message: `elements are nested deeper than ${MAX_DEPTH} levels`,
            ...lineCol(text, m.index!),
            limit: true,
          }
      }
    }
    return null
  }
  const { msg, line = 1, col = 1 } = r.err
  return { message: msg, line, column: col, position: -1 }
}

/** Throws a 422 naming `field` when the document is not well-formed (or declares entities, or nests too deep). */
export function assertXml(text: string, field: string): void {
  const e = xmlError(text)
  if (e) {
    const msg = `line ${e.line}, column ${e.column}: ${e.message}`
    throw new ServiceError(422, 'INVALID_INPUT', `${field}: invalid XML: ${msg}`, {
      details: [{ path: `/${field}`, message: msg, line: e.line, column: e.column }],
    })
  }
}

/** Puts attribute keys first in every object (fast-xml-parser adds them after the children). */
function attrsFirst(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(attrsFirst)
  if (v === null || typeof v !== 'object') return v
  const entries = Object.entries(v as Record<string, unknown>)
  const ordered = [...entries.filter(([k]) => k.startsWith('@')), ...entries.filter(([k]) => !k.startsWith('@'))]
  return Object.fromEntries(ordered.map(([k, x]) => [k, attrsFirst(x)]))
}

/** XML text to JSON (see the convention above). The XML declaration and processing instructions are dropped. */
export function xmlToJson(text: string, field: string, parseValues = false): Record<string, unknown> {
  assertXml(text, field)
  const decode = (_name: string, val: unknown) => (typeof val === 'string' ? decodeEntities(val) : val)
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
    processEntities: false,
    htmlEntities: false,
    parseTagValue: parseValues,
    parseAttributeValue: parseValues,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    maxNestedTags: MAX_DEPTH,
    tagValueProcessor: decode,
    attributeValueProcessor: decode,
  })
  try {
    return attrsFirst(parser.parse(text)) as Record<string, unknown>
  } catch (e) {
    throw invalid(field, `invalid XML: ${(e as Error).message}`)
  }
}

const NAME = /^[\p{L}_][\p{L}\p{N}._-]*(?::[\p{L}_][\p{L}\p{N}._-]*)?$/u

/** Checks that every key is a usable XML name (or an `@attribute` / `#text`); 422 naming the first bad one. */
function checkNames(v: unknown, field: string, path: string, depth: number): void {
  if (depth > MAX_DEPTH) throw invalid(field, `nesting is deeper than ${MAX_DEPTH} levels`)
  if (Array.isArray(v)) return v.forEach((x, i) => checkNames(x, field, `${path}[${i}]`, depth + 1))
  if (v === null || typeof v !== 'object') return
  for (const [k, x] of Object.entries(v)) {
    const name = k.startsWith('@') ? k.slice(1) : k
    if (k !== '#text' && !NAME.test(name))
      throw invalid(field, `key ${JSON.stringify(k)} at ${path || '$'} is not a valid XML name`)
    if (k.startsWith('@') && x !== null && typeof x === 'object')
      throw invalid(field, `attribute ${JSON.stringify(k)} at ${path || '$'} must be a string, number or boolean`)
    checkNames(x, field, `${path}.${k}`, depth + 1)
  }
}

/** Escaped length of a text or attribute value (`&` becomes `&amp;`, `<` `&lt;`, ...). */
function escapedLength(s: string): number {
  let n = s.length
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c === 38 || c === 60 || c === 62 || c === 34 || c === 39) n += 5
  }
  return n
}

/**
 * An upper bound of the XML text the builder writes for `v` at `depth`: every element writes its name twice (each
 * item of an array too, so a long key over a long array multiplies) and, with `indent`, a line of indentation.
 */
function xmlSize(v: unknown, indent: number, depth: number): number {
  if (v === null || typeof v !== 'object') return escapedLength(String(v))
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + xmlSize(x, indent, depth), 0)
  let n = 0
  for (const [k, x] of Object.entries(v)) {
    if (k.startsWith('@')) n += k.length + 4 + xmlSize(x, indent, depth)
    else if (k === '#text') n += xmlSize(x, indent, depth)
    else {
      const tags = 2 * k.length + 5 + 2 * (depth * indent + 1)
      n += Array.isArray(x)
        ? x.reduce((m: number, y) => m + tags + xmlSize(y, indent, depth + 1), 0)
        : tags + xmlSize(x, indent, depth + 1)
    }
  }
  return n
}

/**
 * JSON to XML text. An object with exactly one key (not `@…`/`#text`) whose value is not an array names the root
 * element; anything else is wrapped in `root` (an array becomes repeated `item` elements). Arrays become repeated
 * elements, null an empty element, an empty array nothing.
 */
export function jsonToXml(
  value: unknown,
  field: string,
  opts: { root: string; indent: number; declaration: boolean },
): string {
  const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : []
  const single =
    keys.length === 1 &&
    !keys[0].startsWith('@') &&
    keys[0] !== '#text' &&
    !Array.isArray((value as Record<string, unknown>)[keys[0]])
  const doc = single ? value : { [opts.root]: Array.isArray(value) ? { item: value } : value }
  checkNames(doc, field, '', 0)
  if (xmlSize(doc, opts.indent, 0) > MAX_ANSWER_CHARS)
    throw answerTooLarge(
      field,
      'each array item repeats its element name: send less data, shorter keys or a smaller indent',
    )
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
    format: opts.indent > 0,
    indentBy: ' '.repeat(opts.indent),
    suppressEmptyNode: true,
    processEntities: true,
  })
  const xml = String(builder.build(doc))
  return (opts.declaration ? '<?xml version="1.0" encoding="UTF-8"?>\n' : '') + xml.replace(/\n$/, '') + '\n'
}

/**
 * A pretty-printed copy of a well-formed document, keeping order, comments, CDATA and entities as written; 422
 * when the copy would pass MAX_ANSWER_CHARS (deeply nested small elements gain up to 128 spaces each).
 */
export function normalizeXml(text: string): string {
  if (text.length + xmlShape(text, 2).indentChars > MAX_ANSWER_CHARS)
    throw answerTooLarge('input', 'its normalized copy is too large; send a smaller or less deeply nested document')
  const common = {
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    commentPropName: '#comment',
    cdataPropName: '#cdata',
    processEntities: false,
    htmlEntities: false,
  }
  const tree = new XMLParser({
    ...common,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    maxNestedTags: MAX_DEPTH,
  }).parse(text)
  const out = String(new XMLBuilder({ ...common, format: true, indentBy: '  ', suppressEmptyNode: true }).build(tree))
    // The builder breaks the line after a lone CDATA child. The section is matched up to its first `]]>` only: a
    // lazy `[\s\S]*?` would retry across every later section (quadratic).
    .replace(/(<!\[CDATA\[(?:[^\]]|\](?!\]>))*\]\]>)\n[ ]*<\//g, '$1</')
    .replace(/^\n+/, '')
  return trimNewlines(out) + '\n'
}

/** The text without its trailing line breaks (a `/\n*$/` regex retries from every line break of a run: quadratic). */
function trimNewlines(s: string): string {
  let end = s.length
  while (end > 0 && s[end - 1] === '\n') end--
  return s.slice(0, end)
}
