/**
 * Base64 payloads for the media utilities (image-rotate-flip, pdf-form-fill): strict decoding with a byte cap,
 * and content sniffing from the first bytes (the declared type is never trusted).
 */
import { invalid } from '../../runtime/sdk'

/** Base64 characters that fit the server default 1 MiB request body with room for the other fields (780,000 bytes decoded). */
export const MAX_B64_CHARS = 1_040_000

/**
 * Decodes standard or URL-safe base64 (padding optional, whitespace ignored, an optional `data:...;base64,` prefix
 * stripped). Anything else, an empty result or more than `maxBytes` bytes is a 422 on `field`.
 */
export function decodeBase64(field: string, s: string, maxBytes: number): Uint8Array {
  const body = s.replace(/^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,/i, '').replace(/\s+/g, '')
  if (!body) throw invalid(field, 'is empty')
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(body) || body.replace(/=+$/, '').length % 4 === 1)
    throw invalid(field, 'is not valid base64')
  const bytes = Buffer.from(body.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  if (bytes.length === 0) throw invalid(field, 'decodes to no data')
  if (bytes.length > maxBytes) throw invalid(field, `decodes to ${bytes.length} bytes; the limit is ${maxBytes}`)
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)
}

/** Raster image type from the magic bytes: png, jpeg, gif or webp. */
export function sniffImage(b: Uint8Array): 'png' | 'jpeg' | 'gif' | 'webp' | undefined {
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return 'png'
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg'
  if (
    b.length >= 6 &&
    b[0] === 0x47 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x38 &&
    (b[4] === 0x37 || b[4] === 0x39) &&
    b[5] === 0x61
  )
    return 'gif'
  if (
    b.length >= 12 &&
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50
  )
    return 'webp'
  return undefined
}

/** True when the bytes start like a PDF file (`%PDF-` within the first 1024 bytes, as readers allow). */
export function looksLikePdf(b: Uint8Array): boolean {
  const head = Buffer.from(b.subarray(0, 1024)).toString('latin1')
  return head.includes('%PDF-')
}
