import { expect, test } from 'bun:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { addressOfKey } from '../../runtime/pay/fast-recover'

test('addressOfKey gives the checksummed address viem derives, for random keys and edge keys', () => {
  const keys = [
    ...Array.from({ length: 50 }, () => generatePrivateKey()),
    `0x${'00'.repeat(31)}01`,
    '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140',
  ] as `0x${string}`[]
  for (const k of keys) expect(addressOfKey(k)).toBe(privateKeyToAccount(k).address)
})

test('addressOfKey refuses a key of the wrong length', () => {
  expect(() => addressOfKey('0x1234')).toThrow('32 bytes')
})
