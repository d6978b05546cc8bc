import { PDFDocument, type PDFForm } from 'pdf-lib'
import { handlerFor, invalid, ServiceError } from '../../runtime/sdk'
import { decodeBase64, looksLikePdf } from '../_lib/media-input'
import { DecodeBudgetExceeded, withDecodeBudget } from './decode-cap'
import { fieldType, fill, MAX_FORM_FIELDS, readValue } from './lib'
import manifest, { MAX_PDF_BYTES } from './manifest'

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 200)

async function load(bytes: Uint8Array): Promise<PDFDocument> {
  if (!looksLikePdf(bytes)) throw invalid('pdf_b64', 'is not a PDF (no %PDF- header)')
  let doc: PDFDocument, pages: number, fields: number
  try {
    // updateMetadata false: no ModDate/Producer rewrite, so the same input always gives the same output.
    doc = await withDecodeBudget(() => PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false }))
    pages = doc.getPageCount()
    fields = doc.getForm().getFields().length
  } catch (e) {
    if (e instanceof DecodeBudgetExceeded)
      throw invalid('pdf_b64', `is refused: ${e.message}; send the uncompressed form`)
    if (/encrypted/i.test(reason(e))) throw invalid('pdf_b64', 'is encrypted; encrypted PDFs are not supported')
    throw invalid('pdf_b64', `cannot be parsed as a PDF: ${reason(e)}`)
  }
  if (pages === 0) throw invalid('pdf_b64', 'has no pages')
  if (fields > MAX_FORM_FIELDS)
    throw invalid('pdf_b64', `has ${fields} form fields; at most ${MAX_FORM_FIELDS} are supported`)
  return doc
}

const describe = (form: PDFForm) =>
  form.getFields().map((f) => ({ name: f.getName(), type: fieldType(f), value: readValue(f) }))

export default handlerFor(manifest, async ({ pdf_b64, fields, on_unknown = 'error', flatten = false }) => {
  const doc = await load(decodeBase64('pdf_b64', pdf_b64, MAX_PDF_BYTES))
  const form = doc.getForm()
  const known = new Map(form.getFields().map((f) => [f.getName(), f]))
  const unknown = Object.keys(fields).filter((n) => !known.has(n))
  if (unknown.length && on_unknown === 'error') {
    const names = unknown
      .slice(0, 20)
      .map((n) => JSON.stringify(n))
      .join(', ')
    throw new ServiceError(
      422,
      'INVALID_INPUT',
      `fields: no form field named ${names}${unknown.length > 20 ? ', …' : ''}; the form has: ${[...known.keys()].slice(0, 50).join(', ') || 'no fields'}`,
      {
        details: unknown.map((n) => ({
          path: `/fields/${n.replace(/~/g, '~0').replace(/\//g, '~1')}`,
          message: 'no form field of this name',
        })),
        extra: { unknown_fields: unknown },
      },
    )
  }
  const set: string[] = []
  for (const [name, value] of Object.entries(fields)) {
    const f = known.get(name)
    if (!f) continue
    fill(f, name, value)
    set.push(name)
  }
  try {
    if (flatten) form.flatten()
    else form.updateFieldAppearances()
  } catch (e) {
    throw invalid(
      'fields',
      `a value cannot be drawn with the standard Helvetica font (WinAnsi characters only): ${reason(e)}`,
    )
  }
  let out: Uint8Array, check: PDFDocument
  try {
    out = await doc.save({ useObjectStreams: false })
    // Values are read back from the saved file, not from memory.
    check = await withDecodeBudget(() => PDFDocument.load(out, { updateMetadata: false }))
  } catch (e) {
    throw invalid('pdf_b64', `cannot be written back: ${reason(e)}`)
  }
  return {
    pdf_b64: Buffer.from(out).toString('base64'),
    bytes: out.length,
    pages: check.getPageCount(),
    fields_set: set,
    unknown_fields: unknown,
    flattened: flatten,
    fields: describe(check.getForm()),
  }
})
