/**
 * pdf-form-fill is bounded on hostile PDFs: object streams that inflate without end (a 680 KB deflate bomb grew
 * the process to 2 GB and was answered 200) and forms with thousands of fields.
 */
import { afterAll, expect, test } from 'bun:test'
import { serviceRunner } from '../../test/support/fixture-run'
import { hostileGrowth, pdfDeflateBomb, pdfWithFields } from '../../test/support/large-inputs'
import { MAX_FORM_FIELDS } from './lib'

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64')

hostileGrowth('pdf-form-fill', 'deflate bomb streams', (n) => ({ pdf_b64: b64(pdfDeflateBomb(n)), fields: {} }), 8, {
  outcomes: ['422 INVALID_INPUT'],
})
hostileGrowth(
  'pdf-form-fill',
  'form fields',
  (n) => ({ pdf_b64: b64(pdfWithFields(n)), fields: { f1: 'x' } }),
  MAX_FORM_FIELDS / 2,
  { outcomes: ['ok'] },
)

const svc = serviceRunner('pdf-form-fill')
afterAll(svc.close)

test('a bomb is refused with what to send, and the process stays small', async () => {
  // growth, not absolute RSS: bun test runs every file in one process, which already holds the earlier files' memory
  const before = process.memoryUsage().rss
  const run = await svc.run({ name: 'bomb', input: { pdf_b64: b64(pdfDeflateBomb(16)), fields: {} } })
  expect(String(run.error)).toContain('decode to more than 32 MiB')
  expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024)
}, 60_000)

test(`a form of more than ${MAX_FORM_FIELDS} fields is a 422`, async () => {
  const run = await svc.run({ name: 'fields', input: { pdf_b64: b64(pdfWithFields(MAX_FORM_FIELDS + 1)), fields: {} } })
  expect(String(run.error)).toContain(`has ${MAX_FORM_FIELDS + 1} form fields; at most ${MAX_FORM_FIELDS}`)
}, 60_000)
