/**
 * A cap on what pdf-lib decodes while it parses one PDF. pdf-lib inflates object and cross-reference streams in
 * full on load (Flate, LZW, RunLength, ASCII85/Hex, chained), so a 680 KB deflate bomb grew the process to 2 GB.
 * Every pdf-lib decoder (a DecodeStream) grows its buffer through `ensureBuffer`, and a single deflate block can
 * be any length, so the cap sits there: a stream may grow only to what is left of the document's budget, and the
 * first stream over it exhausts the budget for the rest of the load. The budget belongs to one `withDecodeBudget`
 * call (AsyncLocalStorage), so concurrent loads never share one; a decode outside any call gets a fresh one.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { decodePDFRawStream, PDFContext, PDFName, PDFRawStream } from 'pdf-lib'

/** Most bytes the streams of one PDF may decode to, in total. */
export const MAX_DECODED_BYTES = 32 * 1024 * 1024

interface Budget {
  left: number
  exceeded: boolean
}
const budgets = new AsyncLocalStorage<Budget>()

interface DecodeStream {
  eof: boolean
  buffer: Uint8Array
  bufferLength: number
  readBlock(): void
  ensureBuffer(requested: number): Uint8Array
  decode(): Uint8Array
}

let patched = false
function patch(): void {
  if (patched) return
  // DecodeStream is not exported: reach its prototype through a decoder that pdf-lib builds (one that reads
  // nothing in its constructor).
  const raw = PDFRawStream.of(PDFContext.create().obj({ Filter: PDFName.of('ASCIIHexDecode') }), new Uint8Array(0))
  const proto = Object.getPrototypeOf(Object.getPrototypeOf(decodePDFRawStream(raw))) as DecodeStream
  const ensureBuffer = proto.ensureBuffer
  proto.ensureBuffer = function (this: DecodeStream, requested: number) {
    const budget = budgets.getStore()
    if (requested > (budget?.left ?? MAX_DECODED_BYTES)) {
      if (budget) {
        budget.left = 0
        budget.exceeded = true
      }
      throw new Error(`a stream decodes to more than the ${MAX_DECODED_BYTES} bytes allowed`)
    }
    return ensureBuffer.call(this, requested)
  }
  proto.decode = function (this: DecodeStream) {
    while (!this.eof) this.readBlock()
    const budget = budgets.getStore()
    if (budget) budget.left -= this.bufferLength
    return this.buffer.subarray(0, this.bufferLength)
  }
  patched = true
}

/** The PDF's streams decode to more than MAX_DECODED_BYTES (thrown by `withDecodeBudget`). */
export class DecodeBudgetExceeded extends Error {
  constructor() {
    super(`its compressed streams decode to more than ${MAX_DECODED_BYTES / 1024 / 1024} MiB`)
  }
}

/**
 * Runs `fn` (pdf-lib loads) with a budget of MAX_DECODED_BYTES decoded bytes. A stream cut by the budget is a
 * DecodeBudgetExceeded, also when pdf-lib skipped the undecodable object instead of failing.
 */
export async function withDecodeBudget<T>(fn: () => Promise<T>): Promise<T> {
  patch()
  const budget: Budget = { left: MAX_DECODED_BYTES, exceeded: false }
  let value: T
  try {
    value = await budgets.run(budget, fn)
  } catch (e) {
    throw budget.exceeded ? new DecodeBudgetExceeded() : e
  }
  if (budget.exceeded) throw new DecodeBudgetExceeded()
  return value
}
