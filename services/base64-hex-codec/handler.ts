import { handlerFor, invalid } from '../../runtime/sdk'
import { MAX_ANSWER_CHARS, answerTooLarge } from '../_lib/data-format-json'
import manifest from './manifest'

const B64 = /^[A-Za-z0-9+/]*={0,2}$/
const B64URL = /^[A-Za-z0-9_-]*={0,2}$/

function decode(input: string, alphabet: string): Buffer {
  const s = alphabet === 'percent' ? input : input.replace(/\s+/g, '')
  switch (alphabet) {
    case 'base64':
      if (!B64.test(s) || s.length % 4 === 1 || (s.includes('=') && s.length % 4 !== 0))
        throw invalid('input', 'is not valid base64 (RFC 4648 §4)')
      return Buffer.from(s, 'base64')
    case 'base64url':
      if (!B64URL.test(s) || s.replace(/=+$/, '').length % 4 === 1)
        throw invalid('input', 'is not valid base64url (RFC 4648 §5)')
      return Buffer.from(s.replace(/=+$/, ''), 'base64url')
    case 'hex':
      if (s.length % 2 || !/^[0-9a-fA-F]*$/.test(s)) throw invalid('input', 'is not valid hex (pairs of 0-9a-f)')
      return Buffer.from(s, 'hex')
    default:
      return percentDecode(input)
  }
}

/** RFC 3986 percent-decoding to raw bytes, like Python's urllib.parse.unquote_to_bytes ('+' stays '+'). */
function percentDecode(input: string): Buffer {
  const bad = /%(?![0-9A-Fa-f]{2})/.exec(input)
  if (bad)
    throw invalid(
      'input',
      `has a malformed percent escape at offset ${bad.index} (% must be followed by two hex digits)`,
    )
  // One pass over the UTF-8 bytes ('%' and hex digits are ASCII): a regex replace with a callback per escape
  // grew quadratically in the number of escapes.
  const src = Buffer.from(input, 'utf8')
  const out = Buffer.allocUnsafe(src.length)
  let n = 0
  for (let i = 0; i < src.length; i++) {
    if (src[i] === 0x25) {
      out[n++] = (hexValue(src[i + 1]) << 4) | hexValue(src[i + 2])
      i += 2
    } else out[n++] = src[i]
  }
  return out.subarray(0, n)
}

/** Value of an ASCII hex digit (checked before). */
const hexValue = (c: number): number => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57)

function encode(raw: Buffer, alphabet: string): string {
  if (alphabet === 'base64') return raw.toString('base64')
  if (alphabet === 'base64url') return raw.toString('base64url')
  if (alphabet === 'hex') return raw.toString('hex')
  return encodeURIComponent(raw.toString('utf8')).replace(
    /[!'()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  )
}

export default handlerFor(manifest, ({ input, op = 'encode', alphabet = 'base64' }) => {
  const raw = op === 'encode' ? Buffer.from(input, 'utf8') : decode(input, alphabet)
  let utf8_valid = true
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(raw)
  } catch {
    utf8_valid = false
  }
  const output = op === 'encode' ? encode(raw, alphabet) : raw.toString('utf8')
  // Percent-encoding multiplies a 3-byte character by 9, and the hex copy doubles every byte.
  if (output.length + 2 * raw.length > MAX_ANSWER_CHARS)
    throw answerTooLarge('input', 'send less text (percent-encoding writes 9 characters for a 3-byte character)')
  return { op, alphabet, output, bytes: raw.length, utf8_valid, hex: raw.toString('hex') }
})
