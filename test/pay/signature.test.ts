import { describe, expect, test } from 'bun:test'
import { hashTypedData, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { authorizationDigest, nativeRecovery, recoverNative } from '../../runtime/pay/fast-recover'
import { recoverSignerPureJs, typedData } from '../../runtime/pay/signature'
import type { Authorization } from '../../runtime/pay/types'
import { requirements } from '../support/pay'

const req = requirements()

async function vector(i: number) {
  const acct = privateKeyToAccount(generatePrivateKey())
  const a: Authorization = {
    from: acct.address,
    to: req.payTo as `0x${string}`,
    value: String(1000 + i * 7919),
    validAfter: String(i),
    validBefore: String(1_900_000_000 + i),
    nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
  }
  const r = { ...req, amount: a.value }
  const signature = await acct.signTypedData(typedData(a, r))
  return { acct, a, r, signature }
}

describe('signature recovery', () => {
  test('the native path is available on this machine', () => {
    expect(nativeRecovery()).toBe(true)
  })
  test('the EIP-712 digest equals viem hashTypedData', async () => {
    for (let i = 0; i < 20; i++) {
      const { a, r } = await vector(i)
      expect(toHex(authorizationDigest(a, r))).toBe(hashTypedData(typedData(a, r)))
    }
  })
  test('native and pure-JS recovery agree with each other and with the signer', async () => {
    for (let i = 0; i < 50; i++) {
      const { acct, a, r, signature } = await vector(i)
      const js = await recoverSignerPureJs(a, signature, r)
      expect(js).toBe(acct.address)
      expect(recoverNative(a, signature, r)).toBe(acct.address.toLowerCase())
    }
  })
  test('a tampered message recovers another address; malformed signatures throw', async () => {
    const { acct, a, r, signature } = await vector(1)
    const other = recoverNative({ ...a, value: '1' }, signature, r)
    expect(other).not.toBe(acct.address.toLowerCase())
    expect(other).toBe((await recoverSignerPureJs({ ...a, value: '1' }, signature, r)).toLowerCase())
    expect(() => recoverNative(a, '0x1234', r)).toThrow()
    expect(() => recoverNative(a, (signature.slice(0, -2) + '05') as `0x${string}`, r)).toThrow()
  })
})
