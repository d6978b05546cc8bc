/**
 * Our Keccak-256 (runtime/pay/keccak.ts, the voucher check's hash) against @noble/hashes' keccak_256 (what viem uses):
 * every length from 0 to three blocks (136 bytes each) and around each block boundary, random bytes, and the known
 * digests of the empty string and "abc".
 */
import { expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { keccak_256 } from '@noble/hashes/sha3'
import { keccak256 } from '../../runtime/pay/keccak'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

test('keccak256 equals @noble/hashes on every length up to three blocks and on random inputs', () => {
  expect(hex(keccak256(new Uint8Array()))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
  expect(hex(keccak256(new TextEncoder().encode('abc')))).toBe(
    '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45',
  )
  for (let n = 0; n <= 3 * 136 + 1; n++) {
    const b = new Uint8Array(randomBytes(n))
    expect(hex(keccak256(b))).toBe(hex(keccak_256(b)))
  }
  for (let i = 0; i < 200; i++) {
    const b = new Uint8Array(randomBytes(Math.floor(Math.random() * 2000)))
    expect(hex(keccak256(b))).toBe(hex(keccak_256(b)))
  }
  // a view into a larger buffer (an offset) hashes its own bytes only
  const big = new Uint8Array(randomBytes(300))
  expect(hex(keccak256(big.subarray(7, 250)))).toBe(hex(keccak_256(big.subarray(7, 250))))
})
