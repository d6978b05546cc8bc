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

test('a lane signs a transaction natively into the very bytes viem signs (RFC 6979), for random keys and fields', async () => {
  const { Lane } = await import('../../runtime/pay/facilitator/settle/lane')
  for (let i = 0; i < 20; i++) {
    const key = generatePrivateKey()
    const tx = {
      type: 'eip1559' as const,
      chainId: i % 2 ? 8453 : 84532,
      nonce: i * 7,
      to: privateKeyToAccount(generatePrivateKey()).address,
      data: `0x${'ab'.repeat(i * 10)}` as `0x${string}`,
      gas: 90_000n + BigInt(i),
      value: 0n,
      maxFeePerGas: 1_000_000_000n * BigInt(i + 1),
      maxPriorityFeePerGas: 1_000_000n,
    }
    expect(await new Lane(key).signTransaction(tx)).toBe(await privateKeyToAccount(key).signTransaction(tx))
  }
})
