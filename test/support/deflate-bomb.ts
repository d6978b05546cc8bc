import { once } from 'node:events'
import { createDeflate } from 'node:zlib'

/**
 * A small PDF whose one object stream inflates to `mb` MiB (spaces after a valid header): a parser that inflates
 * object streams at load (pdf-lib does) holds it all in memory. Deflated as a stream, so the test process itself never
 * holds the inflated bytes.
 */
export async function deflateBombPdf(mb: number): Promise<Buffer> {
  const head = '4 0 '
  const chunk = Buffer.alloc(1_048_576, 0x20)
  chunk.write(`${head}<< /A 1 >>`)
  const deflate = createDeflate({ level: 9 })
  const out: Buffer[] = []
  deflate.on('data', (c: Buffer) => out.push(c))
  for (let i = 0; i < mb; i++)
    if (!deflate.write(i === 0 ? chunk : Buffer.alloc(1_048_576, 0x20))) await once(deflate, 'drain')
  deflate.end()
  await once(deflate, 'end')
  const z = Buffer.concat(out)
  const pieces: Buffer[] = []
  const offsets: number[] = []
  let at = 0
  const add = (p: string | Buffer) => {
    const b = typeof p === 'string' ? Buffer.from(p, 'latin1') : p
    pieces.push(b)
    at += b.length
  }
  add('%PDF-1.7\n')
  offsets.push(at)
  add('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n')
  offsets.push(at)
  add('2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n')
  offsets.push(at)
  add(`3 0 obj\n<< /Type /ObjStm /N 1 /First ${head.length} /Filter /FlateDecode /Length ${z.length} >>\nstream\n`)
  add(z)
  add('\nendstream\nendobj\n')
  const xref = at
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')
  add(`xref\n0 4\n0000000000 65535 f \n${rows}trailer\n<< /Root 1 0 R /Size 4 >>\nstartxref\n${xref}\n%%EOF\n`)
  return Buffer.concat(pieces)
}
