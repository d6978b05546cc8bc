/** Payment signature checks per second on one core: native libsecp256k1 path vs viem's pure-JS recovery. */
import { toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { recoverNative } from '../runtime/pay/fast-recover'
import { recoverSignerPureJs, typedData } from '../runtime/pay/signature'
import type { Authorization } from '../runtime/pay/types'
import { requirements } from '../test/support/pay'

export async function signatureThroughput(n: number): Promise<string[]> {
  const req = requirements()
  const acct = privateKeyToAccount(generatePrivateKey())
  const samples = await Promise.all(
    Array.from({ length: 64 }, async () => {
      const a: Authorization = {
        from: acct.address,
        to: req.payTo as `0x${string}`,
        value: '1000',
        validAfter: '0',
        validBefore: '1900000000',
        nonce: toHex(crypto.getRandomValues(new Uint8Array(32))),
      }
      return { a, sig: await acct.signTypedData(typedData(a, req)) }
    }),
  )
  const time = async (fn: (i: number) => unknown, count: number) => {
    const t = performance.now()
    for (let i = 0; i < count; i++) await fn(i)
    return count / ((performance.now() - t) / 1000)
  }
  const native = await time((i) => recoverNative(samples[i % 64].a, samples[i % 64].sig, req), n)
  const js = await time(
    (i) => recoverSignerPureJs(samples[i % 64].a, samples[i % 64].sig, req),
    Math.max(50, Math.floor(n / 5)),
  )
  return [
    '| path | checks per second (one core) | target |',
    '|---|---|---|',
    `| native libsecp256k1 + cached EIP-712 domain (used) | **${Math.round(native)}** | ≥ 10,000 |`,
    `| viem pure-JS recovery (fallback; baseline) | ${Math.round(js)} | |`,
    '',
    `Ratio native / pure-JS: ${(native / js).toFixed(1)}x. Both are tested to agree (test/pay/signature.test.ts).`,
  ]
}
