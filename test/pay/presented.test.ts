/**
 * The payment a request presents (runtime/pay/server/schemes.ts `presented`): a v2 header is decoded only when it is
 * strict base64 (it encodes back to the very text) of a JSON object within the size bound; anything else is presented
 * undecoded (null), which the schemes then refuse as malformed.
 */
import { expect, test } from 'bun:test'
import { presented } from '../../runtime/pay/server/schemes'

const payload = { x402Version: 2, accepted: { scheme: 'batch-settlement' }, payload: { note: 'ü>?~' } }
const b64 = Buffer.from(JSON.stringify(payload)).toString('base64')

test('strict base64 of a JSON object is decoded once; surrounding whitespace is trimmed', () => {
  expect(b64).toMatch(/[+/]/) // the payload's bytes use both letters base64url replaces
  expect(presented(b64, 2).decoded).toEqual(payload)
  expect(presented(` ${b64}\t`, 2).decoded).toEqual(payload)
})

test('base64url letters, characters outside base64, inner whitespace, bad padding, non-canonical bits: not decoded', () => {
  const url = b64.replace(/\+/g, '-').replace(/\//g, '_')
  expect(url).not.toBe(b64)
  for (const bad of [
    url,
    `${b64.slice(0, 8)}*${b64.slice(9)}`,
    `${b64.slice(0, 8)} ${b64.slice(9)}`,
    `${b64.slice(0, -4)}====`,
    'e30', // `{}` without its padding
    'e31=', // `{}` with a non-zero bit the encoder never writes
  ])
    expect(presented(bad, 2).decoded).toBeNull()
  expect(presented('e30=', 2).decoded).toEqual({})
})

test('not JSON, not an object, too long, v1 and MPP: not decoded', () => {
  expect(presented(Buffer.from('not json').toString('base64'), 2).decoded).toBeNull()
  expect(presented(Buffer.from('42').toString('base64'), 2).decoded).toBeNull()
  const long = Buffer.from(JSON.stringify({ a: 'x'.repeat(20_000) })).toString('base64')
  expect(presented(long, 2).decoded).toBeNull()
  expect(presented(b64, 1).decoded).toBeNull()
  expect(presented(b64, 2, 'mpp').decoded).toBeNull()
})
