/** extract-document turns a fetched PDF into text before the model sees it (the PDF is built here with pdf-lib). */
import { afterAll, expect, test } from 'bun:test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { serviceRunner } from '../../test/support/fixture-run'

const svc = serviceRunner('extract-document')
afterAll(svc.close)

test('the PDF text and its type reach the model; the URL is fetched once', async () => {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  doc.addPage().drawText('Invoice 1042 total 99.50 USD', { x: 50, y: 700, font, size: 12 })
  const pdf = Buffer.from(await doc.save()).toString('base64')
  const run = await svc.run({
    name: 'pdf',
    input: { code: '{{web}}/inv.pdf', context: 'invoice fields' },
    web: { '/inv.pdf': { base64: pdf, contentType: 'application/pdf' } },
    model: [{ text: '| Invoice | 1042 |' }],
  })
  if (run.error) throw run.error
  const sent = JSON.stringify(run.modelRequests[0])
  expect(sent).toContain('Invoice 1042 total 99.50 USD')
  expect(sent).toContain('application/pdf')
  expect(run.requested).toEqual(['/inv.pdf'])
})
