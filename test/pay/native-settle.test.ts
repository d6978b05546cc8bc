/** Settlement work done natively or by hand, checked against viem: key addresses, transaction signatures, exact calldata. */
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

test('addressOfKey refuses a key of the wrong length, and zero and the group order', () => {
  expect(() => addressOfKey('0x1234')).toThrow('32 bytes')
  expect(() => addressOfKey(`0x${'00'.repeat(32)}`)).toThrow()
  expect(() => addressOfKey('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141')).toThrow()
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

test("exact's calldata written word by word is viem's, and anything unusual is left to viem", async () => {
  const { encodeCalldata, vrsCalldata } = await import('../../runtime/pay/facilitator/local')
  const rnd = (n: number) => `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(n))).toString('hex')}`
  for (let i = 0; i < 40; i++) {
    const v = [27, 28, 0, 1][i % 4]!.toString(16).padStart(2, '0')
    const p = {
      payload: {
        signature: `${rnd(64)}${v}`,
        authorization: {
          from: privateKeyToAccount(generatePrivateKey()).address.toLowerCase(),
          to: privateKeyToAccount(generatePrivateKey()).address,
          value: String(BigInt(rnd(i % 3 === 0 ? 32 : 8))),
          validAfter: String(i),
          validBefore: String(1_900_000_000 + i),
          nonce: rnd(32),
        },
      },
    } as never
    expect(vrsCalldata(p)).toBe(encodeCalldata(p))
  }
  const odd = (signature: string, value = '1') =>
    ({
      payload: {
        signature,
        authorization: {
          from: `0x${'1'.repeat(40)}`,
          to: `0x${'2'.repeat(40)}`,
          value,
          validAfter: '0',
          validBefore: '9',
          nonce: `0x${'3'.repeat(64)}`,
        },
      },
    }) as never
  expect(vrsCalldata(odd(`0x${'a'.repeat(128)}1f`))).toBeNull() // v 31: a contract wallet's, the bytes overload
  expect(vrsCalldata(odd(`0x${'a'.repeat(200)}`))).toBeNull() // not 65 bytes
  expect(vrsCalldata(odd(`0x${'a'.repeat(128)}1b`, (1n << 256n).toString()))).toBeNull() // beyond uint256
})
